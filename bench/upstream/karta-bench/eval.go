package main

import (
	"context"

	"github.com/run-ai/karta/pkg/instructions"
	"github.com/run-ai/karta/pkg/resource"

	"workloadmap.dev/tests/upstream/ref"
)

// The readings below are those of the differential test's ref package (same document shapes),
// taken from one component factory per object, as a controller holding the workload would do:
// KAI Scheduler's pod grouper and a `kli get` build one factory per workload and ask it for the
// components, their instances, scale and templates, the status and the gang minimums.

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
				pg.Members = append(pg.Members, ref.MemberOf(ctx, f, summary, m.ComponentName))
			}
			out.PodGroups = append(out.PodGroups, pg)
		}
	}
	return out
}
