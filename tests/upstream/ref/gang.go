package ref

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/run-ai/karta/pkg/instructions"
	"github.com/run-ai/karta/pkg/resource"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Gangs mirrors the parts of wmap's WorkloadGangs document (and of the pod placement of its
// WorkloadDescription) that upstream's library computes.
//
// The library gives the building blocks KAI Scheduler's Karta grouper uses: the pod's component
// (InferPodComponent) and instance (InferPodComponentInstance), the effective pod-group member
// (GetPodGroupingEffectiveComponent), the group keys (ExtractGroupKeys) and the minimum of a
// component subtree (CalculateSubtreeScale). Names are formed as KAI forms them:
// pg-<uid>-<group keys joined by "-"> for the podGroups form, pg-<uid>-<podGroup.name> for the
// podGroup form.
type Gangs struct {
	Workload   WorkloadRef       `json:"workload"`
	Definition string            `json:"definition"`
	Form       string            `json:"form"`
	PodGroups  []PodGroupReading `json:"podGroups,omitempty"`
	Gangs      []GangReading     `json:"gangs,omitempty"`
	Pods       []PodReading      `json:"pods"`
	Error      string            `json:"error,omitempty"`
}

// PodGroupReading is one entry of the podGroups form with the minimum of each member instance.
type PodGroupReading struct {
	Name    string          `json:"name"`
	Members []MemberReading `json:"members"`
}

// MemberReading is one member of a pod group.
type MemberReading struct {
	Component string           `json:"component"`
	Instances []MemberInstance `json:"instances,omitempty"`
	Error     string           `json:"error,omitempty"`
}

// MemberInstance is CalculateSubtreeScale for one instance of a member component (ID nil for a
// component without instanceIdPath).
type MemberInstance struct {
	ID           *string `json:"id,omitempty"`
	MinAvailable int32   `json:"minAvailable"`
}

// GangReading is the pod group of the podGroup form.
type GangReading struct {
	Name        string            `json:"name"`
	MinMember   int32             `json:"minMember"`
	MinSubGroup int32             `json:"minSubGroup"`
	SubGroups   []SubGroupReading `json:"subGroups"`
	Error       string            `json:"error,omitempty"`
}

// SubGroupReading is one subGroups entry of the podGroup form.
type SubGroupReading struct {
	Component string `json:"component"`
	MinMember int32  `json:"minMember"`
	Error     string `json:"error,omitempty"`
}

// PodReading is what the library says about one given pod.
type PodReading struct {
	Pod       string  `json:"pod"`
	Component string  `json:"component,omitempty"`
	Instance  *string `json:"instance,omitempty"`
	// Gang is the pod group the pod joins ("" when none).
	Gang string `json:"gang"`
	// MinAvailable is the minimum KAI gives the pod's group when the pod creates it.
	MinAvailable *int32 `json:"minAvailable,omitempty"`
	// Error is the first library error met for this pod's group (component, filters, keys,
	// minimum); InstanceError the error inferring its instance.
	Error         string `json:"error,omitempty"`
	InstanceError string `json:"instanceError,omitempty"`
}

// ToPod decodes an object into a typed Pod, as KAI Scheduler holds pods.
func ToPod(obj map[string]any) (*corev1.Pod, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	pod := &corev1.Pod{}
	if err := json.Unmarshal(data, pod); err != nil {
		return nil, err
	}
	return pod, nil
}

// GangsOf computes the pod groups of obj and the group of each pod.
func GangsOf(ctx context.Context, def *Definition, obj map[string]any, pods []*corev1.Pod) Gangs {
	out := Gangs{Workload: workloadRef(obj), Definition: def.Name(), Form: "none", Pods: []PodReading{}}
	factory := resource.NewComponentFactoryFromObject(def.Karta, &unstructured.Unstructured{Object: obj})
	summary, err := instructions.NewStructureSummary(def.Karta)
	if err != nil {
		out.Error = err.Error()
		return out
	}
	uid := out.Workload.UID
	gs := def.Karta.Spec.Instructions.GangScheduling
	switch {
	case gs != nil && gs.PodGroup != nil:
		out.Form = "podGroup"
		out.Gangs = []GangReading{podGroupV2(ctx, def, factory, summary, uid)}
	case gs != nil && len(gs.PodGroups) > 0:
		out.Form = "podGroups"
		for _, g := range gs.PodGroups {
			pg := PodGroupReading{Name: g.Name}
			for _, m := range g.Members {
				pg.Members = append(pg.Members, MemberOf(ctx, factory, summary, m.ComponentName))
			}
			out.PodGroups = append(out.PodGroups, pg)
		}
	}
	for _, pod := range pods {
		out.Pods = append(out.Pods, podReading(ctx, def, factory, summary, uid, out.Form, pod))
	}
	return out
}

// MemberOf is one podGroups member: each instance's minimum (CalculateSubtreeScale).
func MemberOf(ctx context.Context, factory *resource.ComponentFactory, summary *instructions.StructureSummary, name string) MemberReading {
	mr := MemberReading{Component: name}
	comp, err := factory.GetComponent(name)
	if err != nil {
		mr.Error = err.Error()
		return mr
	}
	if !comp.HasInstanceIdDefinition() {
		n, err := instructions.CalculateSubtreeScale(ctx, name, nil, factory, summary)
		if err != nil {
			mr.Error = err.Error()
			return mr
		}
		mr.Instances = []MemberInstance{{MinAvailable: n}}
		return mr
	}
	ids, err := comp.GetInstanceIds(ctx)
	if err != nil {
		mr.Error = err.Error()
		return mr
	}
	for _, id := range ids {
		id := id
		n, err := instructions.CalculateSubtreeScale(ctx, name, &id, factory, summary)
		if err != nil {
			mr.Error = err.Error()
			mr.Instances = nil
			return mr
		}
		mr.Instances = append(mr.Instances, MemberInstance{ID: &id, MinAvailable: n})
	}
	return mr
}

func podGroupV2(ctx context.Context, def *Definition, factory *resource.ComponentFactory, summary *instructions.StructureSummary, uid string) GangReading {
	pg := def.Karta.Spec.Instructions.GangScheduling.PodGroup
	g := GangReading{Name: gangName(uid, pg.Name), MinSubGroup: int32(len(pg.SubGroups)), SubGroups: []SubGroupReading{}}
	root := def.Karta.Spec.StructureDefinition.RootComponent.Name
	n, err := instructions.CalculateSubtreeScale(ctx, root, nil, factory, summary)
	if err != nil {
		g.Error = err.Error()
	}
	g.MinMember = n
	for _, sg := range pg.SubGroups {
		r := SubGroupReading{Component: sg.ComponentName}
		n, err := instructions.CalculateSubtreeScale(ctx, sg.ComponentName, nil, factory, summary)
		if err != nil {
			r.Error = err.Error()
		}
		r.MinMember = n
		g.SubGroups = append(g.SubGroups, r)
	}
	return g
}

func gangName(uid string, parts ...string) string {
	return "pg-" + uid + "-" + strings.Join(parts, "-")
}

func podReading(ctx context.Context, def *Definition, factory *resource.ComponentFactory, summary *instructions.StructureSummary, uid, form string, pod *corev1.Pod) PodReading {
	pr := PodReading{Pod: pod.Name}
	if form == "podGroup" {
		// one group for the whole workload, whatever the pod's component
		pr.Gang = gangName(uid, def.Karta.Spec.Instructions.GangScheduling.PodGroup.Name)
	}
	pq := resource.NewPodQuerier(pod)
	comp, err := instructions.InferPodComponent(ctx, pq, summary)
	if err != nil {
		pr.Error = err.Error()
		return pr
	}
	pr.Component = comp
	inst, err := instructions.InferPodComponentInstance(ctx, pq, comp, factory)
	if err != nil {
		pr.InstanceError = err.Error()
	}
	pr.Instance = inst
	if form == "podGroups" {
		eff, err := instructions.GetPodGroupingEffectiveComponent(ctx, pq, comp, summary)
		if err != nil {
			pr.Error = err.Error()
			return pr
		}
		if eff == nil {
			return pr
		}
		keys, err := pq.ExtractGroupKeys(ctx, eff.MemberDefinition.GroupByKeyPaths)
		if err != nil {
			pr.Error = err.Error()
			return pr
		}
		pr.Gang = gangName(uid, keys...)
		// The minimum is the effective component's, for the pod's instance when the pod's own
		// component is the member.
		var scaleInstance *string
		if eff.EffectiveComponent == comp {
			if pr.InstanceError != "" {
				pr.Error = "minAvailable: instance: " + pr.InstanceError
				return pr
			}
			scaleInstance = inst
		}
		n, err := instructions.CalculateSubtreeScale(ctx, eff.EffectiveComponent, scaleInstance, factory, summary)
		if err != nil {
			pr.Error = fmt.Sprintf("minAvailable: %v", err)
			return pr
		}
		pr.MinAvailable = &n
	}
	return pr
}
