package ref

import (
	"context"

	"github.com/run-ai/karta/pkg/api/runai/v1alpha1"
	"github.com/run-ai/karta/pkg/resource"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// WorkloadRef names the object a document is about, as wmap's documents do.
type WorkloadRef struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	UID        string `json:"uid,omitempty"`
}

func workloadRef(obj map[string]any) WorkloadRef {
	u := unstructured.Unstructured{Object: obj}
	return WorkloadRef{
		APIVersion: u.GetAPIVersion(),
		Kind:       u.GetKind(),
		Namespace:  u.GetNamespace(),
		Name:       u.GetName(),
		UID:        string(u.GetUID()),
	}
}

// Validation is the library's verdict on one definition document.
type Validation struct {
	File   string   `json:"file"`
	Name   string   `json:"name,omitempty"`
	Valid  bool     `json:"valid"`
	Errors []string `json:"errors,omitempty"`
}

// Validate runs the library's KartaValidator (what the operator's webhook and tree.Build run).
// A document that does not decode into a Karta is invalid with the decoding error.
func Validate(def *Definition) Validation {
	v := Validation{File: def.File, Name: def.Name()}
	if def.DecodeError != nil {
		v.Errors = []string{def.DecodeError.Error()}
		return v
	}
	if err := v1alpha1.NewKartaValidator(def.Karta).Validate(); err != nil {
		v.Errors = splitJoined(err)
		return v
	}
	v.Valid = true
	return v
}

// splitJoined flattens an errors.Join tree into its messages.
func splitJoined(err error) []string {
	var out []string
	var walk func(error)
	walk = func(e error) {
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, inner := range j.Unwrap() {
				walk(inner)
			}
			return
		}
		out = append(out, e.Error())
	}
	walk(err)
	return out
}

// Inspection mirrors wmap's WorkloadInspection document.
type Inspection struct {
	Workload   WorkloadRef        `json:"workload"`
	Definition string             `json:"definition"`
	Components []ComponentReading `json:"components"`
}

// ComponentReading is one component with its instances, or the error reading them.
type ComponentReading struct {
	Name      string                   `json:"name"`
	Kind      *metav1.GroupVersionKind `json:"kind"`
	Parent    *string                  `json:"parent"`
	Instances []InstanceReading        `json:"instances,omitempty"`
	Error     string                   `json:"error,omitempty"`
}

// InstanceReading holds what the library extracts for one instance. Scale fields are present
// when the component has a scaleDefinition; pod fields when it has the matching path.
type InstanceReading struct {
	ID                string                      `json:"id"`
	HasScale          bool                        `json:"hasScale"`
	Replicas          *int32                      `json:"replicas"`
	MinReplicas       *int32                      `json:"minReplicas"`
	MaxReplicas       *int32                      `json:"maxReplicas"`
	PodTemplateSpec   *corev1.PodTemplateSpec     `json:"podTemplateSpec,omitempty"`
	PodSpec           *corev1.PodSpec             `json:"podSpec,omitempty"`
	Metadata          *metav1.ObjectMeta          `json:"metadata,omitempty"`
	FragmentedPodSpec *resource.FragmentedPodSpec `json:"fragmentedPodSpec,omitempty"`
}

// componentsInOrder lists the root and then the children in definition order, as wmap does.
func componentsInOrder(k *v1alpha1.Karta) []v1alpha1.ComponentDefinition {
	out := []v1alpha1.ComponentDefinition{k.Spec.StructureDefinition.RootComponent}
	return append(out, k.Spec.StructureDefinition.ChildComponents...)
}

// Inspect reads every component of obj through the library: instance ids, then
// GetExtractedInstances (pod template specs, pod specs, metadata, fragments and scale, zipped
// with the ids). Instances are listed in the order of the ids the library returns.
func Inspect(ctx context.Context, def *Definition, obj map[string]any) Inspection {
	factory := resource.NewComponentFactoryFromObject(def.Karta, &unstructured.Unstructured{Object: obj})
	return InspectWith(ctx, def, workloadRef(obj), factory)
}

// InspectWith is Inspect through a factory the caller made (one per workload, with the jq
// runner of its choice).
func InspectWith(ctx context.Context, def *Definition, w WorkloadRef, factory *resource.ComponentFactory) Inspection {
	out := Inspection{Workload: w, Definition: def.Name()}
	for _, cd := range componentsInOrder(def.Karta) {
		cr := ComponentReading{Name: cd.Name, Parent: cd.OwnerRef}
		comp, err := factory.GetComponent(cd.Name)
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
			ir := InstanceReading{ID: id}
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

// StatusReading mirrors wmap's WorkloadStatus document.
type StatusReading struct {
	Workload   WorkloadRef          `json:"workload"`
	Definition string               `json:"definition"`
	Phase      *string              `json:"phase"`
	Conditions []resource.Condition `json:"conditions"`
	Matched    []string             `json:"matched"`
	Error      string               `json:"error,omitempty"`
}

// Status is the root component's GetStatus.
func Status(ctx context.Context, def *Definition, obj map[string]any) StatusReading {
	factory := resource.NewComponentFactoryFromObject(def.Karta, &unstructured.Unstructured{Object: obj})
	return StatusWith(ctx, def, workloadRef(obj), factory)
}

// StatusWith is Status through a factory the caller made.
func StatusWith(ctx context.Context, def *Definition, w WorkloadRef, factory *resource.ComponentFactory) StatusReading {
	out := StatusReading{Workload: w, Definition: def.Name()}
	root, err := factory.GetRootComponent()
	if err != nil {
		out.Error = err.Error()
		return out
	}
	st, err := root.GetStatus(ctx)
	if err != nil {
		out.Error = err.Error()
		return out
	}
	if st == nil {
		out.Error = "component has no status definition"
		return out
	}
	out.Phase = st.Phase
	out.Conditions = st.Conditions
	if out.Conditions == nil {
		out.Conditions = []resource.Condition{}
	}
	for _, s := range st.MatchedStatuses {
		out.Matched = append(out.Matched, string(s))
	}
	return out
}
