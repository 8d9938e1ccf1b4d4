package main

import (
	"context"

	"github.com/run-ai/karta/pkg/api/runai/v1alpha1"
	"github.com/run-ai/karta/pkg/instructions"
	"github.com/run-ai/karta/pkg/resource"

	"workloadmap.dev/tests/upstream/ref"
)

// The readings below are those of the differential test's ref package (same document shapes),
// taken from one component factory per object, as a controller holding the workload would do:
// KAI Scheduler's pod grouper and a `kli get` build one factory per workload and ask it for the
// components, their instances, scale and templates, the status and the gang minimums.

func inspect(ctx context.Context, def *ref.Definition, w ref.WorkloadRef, f *resource.ComponentFactory) ref.Inspection {
	out := ref.Inspection{Workload: w, Definition: def.Name()}
	k := def.Karta
	comps := append([]v1alpha1.ComponentDefinition{k.Spec.StructureDefinition.RootComponent},
		k.Spec.StructureDefinition.ChildComponents...)
	for _, cd := range comps {
		cr := ref.ComponentReading{Name: cd.Name, Parent: cd.OwnerRef}
		comp, err := f.GetComponent(cd.Name)
		if err != nil {
			cr.Error = err.Error()
			out.Components = append(out.Components, cr)
			continue
		}
		cr.Kind = comp.Kind()
		ids, err := comp.GetInstanceIds(ctx)
		if err != nil {
			cr.Error = err.Error()
			out.Components = append(out.Components, cr)
			continue
		}
		extracted, err := comp.GetExtractedInstances(ctx)
		if err != nil {
			cr.Error = err.Error()
			out.Components = append(out.Components, cr)
			continue
		}
		for _, id := range ids {
			ir := ref.InstanceReading{ID: id}
			if e, ok := extracted[id]; ok {
				if e.Scale != nil {
					ir.HasScale = true
					ir.Replicas, ir.MinReplicas, ir.MaxReplicas = e.Scale.Replicas, e.Scale.MinReplicas, e.Scale.MaxReplicas
				}
				ir.PodTemplateSpec, ir.PodSpec, ir.Metadata, ir.FragmentedPodSpec =
					e.PodTemplateSpec, e.PodSpec, e.Metadata, e.FragmentedPodSpec
			}
			cr.Instances = append(cr.Instances, ir)
		}
		out.Components = append(out.Components, cr)
	}
	return out
}

func status(ctx context.Context, def *ref.Definition, w ref.WorkloadRef, f *resource.ComponentFactory) ref.StatusReading {
	out := ref.StatusReading{Workload: w, Definition: def.Name(), Conditions: []resource.Condition{}}
	root, err := f.GetRootComponent()
	if err != nil {
		out.Error = err.Error()
		return out
	}
	st, err := root.GetStatus(ctx)
	switch {
	case err != nil:
		out.Error = err.Error()
	case st == nil:
		out.Error = "component has no status definition"
	default:
		out.Phase = st.Phase
		if st.Conditions != nil {
			out.Conditions = st.Conditions
		}
		for _, s := range st.MatchedStatuses {
			out.Matched = append(out.Matched, string(s))
		}
	}
	return out
}

// gangs computes the pod groups of the definition's gang-scheduling instructions with the
// minimum of every member (instance) through the library's CalculateSubtreeScale. The corpus
// holds no pods, so no pod is placed.
func gangs(ctx context.Context, def *ref.Definition, w ref.WorkloadRef, f *resource.ComponentFactory) ref.Gangs {
	out := ref.Gangs{Workload: w, Definition: def.Name(), Form: "none", Pods: []ref.PodReading{}}
	summary, err := instructions.NewStructureSummary(def.Karta)
	if err != nil {
		out.Error = err.Error()
		return out
	}
	gs := def.Karta.Spec.Instructions.GangScheduling
	switch {
	case gs != nil && gs.PodGroup != nil:
		out.Form = "podGroup"
		g := ref.GangReading{Name: "pg-" + w.UID + "-" + gs.PodGroup.Name, MinSubGroup: int32(len(gs.PodGroup.SubGroups)),
			SubGroups: []ref.SubGroupReading{}}
		n, err := instructions.CalculateSubtreeScale(ctx, def.Karta.Spec.StructureDefinition.RootComponent.Name, nil, f, summary)
		if err != nil {
			g.Error = err.Error()
		}
		g.MinMember = n
		for _, sg := range gs.PodGroup.SubGroups {
			r := ref.SubGroupReading{Component: sg.ComponentName}
			n, err := instructions.CalculateSubtreeScale(ctx, sg.ComponentName, nil, f, summary)
			if err != nil {
				r.Error = err.Error()
			}
			r.MinMember = n
			g.SubGroups = append(g.SubGroups, r)
		}
		out.Gangs = []ref.GangReading{g}
	case gs != nil && len(gs.PodGroups) > 0:
		out.Form = "podGroups"
		for _, g := range gs.PodGroups {
			pg := ref.PodGroupReading{Name: g.Name}
			for _, m := range g.Members {
				pg.Members = append(pg.Members, member(ctx, f, summary, m.ComponentName))
			}
			out.PodGroups = append(out.PodGroups, pg)
		}
	}
	return out
}

func member(ctx context.Context, f *resource.ComponentFactory, summary *instructions.StructureSummary, name string) ref.MemberReading {
	mr := ref.MemberReading{Component: name}
	comp, err := f.GetComponent(name)
	if err != nil {
		mr.Error = err.Error()
		return mr
	}
	if !comp.HasInstanceIdDefinition() {
		n, err := instructions.CalculateSubtreeScale(ctx, name, nil, f, summary)
		if err != nil {
			mr.Error = err.Error()
			return mr
		}
		mr.Instances = []ref.MemberInstance{{MinAvailable: n}}
		return mr
	}
	ids, err := comp.GetInstanceIds(ctx)
	if err != nil {
		mr.Error = err.Error()
		return mr
	}
	for _, id := range ids {
		id := id
		n, err := instructions.CalculateSubtreeScale(ctx, name, &id, f, summary)
		if err != nil {
			mr.Error = err.Error()
			mr.Instances = nil
			return mr
		}
		mr.Instances = append(mr.Instances, ref.MemberInstance{ID: &id, MinAvailable: n})
	}
	return mr
}
