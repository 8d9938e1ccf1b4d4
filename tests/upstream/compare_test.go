package upstream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/run-ai/karta/pkg/resource"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"workloadmap.dev/tests/upstream/ref"
)

// difference is one field on which the library and wmap disagree for one pair.
type difference struct {
	Source, Definition, Case, Field string
	Ref, Wmap                       string
}

func (d difference) String() string {
	return fmt.Sprintf("%s | %s | %s | %s\n    library: %s\n    wmap:    %s",
		d.Source, d.Definition, d.Case, d.Field, clip(d.Ref), clip(d.Wmap))
}

func clip(s string) string {
	if len(s) > 400 {
		return s[:400] + "..."
	}
	return s
}

// pairKey names one (definition, object) pair in differences.
type pairKey struct{ Source, Definition, Case string }

type recorder struct {
	key   pairKey
	diffs []difference
}

func (r *recorder) add(field string, refv, wmapv any) {
	r.diffs = append(r.diffs, difference{Source: r.key.Source, Definition: r.key.Definition,
		Case: r.key.Case, Field: field, Ref: show(refv), Wmap: show(wmapv)})
}

// show prints a value as compact JSON (strings as they are).
func show(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}

// canon re-encodes a JSON value with sorted keys, so equal values print equally.
func canon(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	var g any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&g); err != nil {
		return string(data)
	}
	out, _ := json.Marshal(g)
	return string(out)
}

// typed decodes a value of wmap's document into the Go type the library returns and encodes it
// again, so both sides go through the same typed lens (quantities, defaults of Go structs).
func typed[T any](v any) (string, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	var t T
	if err := json.Unmarshal(data, &t); err != nil {
		return "", err
	}
	return canon(t), nil
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// number prints a JSON number or null the same way on both sides.
func number(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case *int32:
		if t == nil {
			return "null"
		}
		return fmt.Sprint(*t)
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case json.Number:
		return t.String()
	default:
		return show(v)
	}
}

// compareInspect compares the library's Inspection with wmap's WorkloadInspection.
func compareInspect(r *recorder, lib ref.Inspection, w map[string]any) {
	if w["error"] != nil {
		r.add("inspect.error", "", w["message"])
		return
	}
	wcomps := map[string]map[string]any{}
	var wnames []string
	for _, c := range asList(w["components"]) {
		m := asMap(c)
		wcomps[str(m["name"])] = m
		wnames = append(wnames, str(m["name"]))
	}
	var lnames []string
	for _, c := range lib.Components {
		lnames = append(lnames, c.Name)
	}
	if strings.Join(lnames, ",") != strings.Join(wnames, ",") {
		r.add("inspect.components", lnames, wnames)
	}
	for _, lc := range lib.Components {
		wc, ok := wcomps[lc.Name]
		if !ok {
			continue
		}
		f := "inspect." + lc.Name
		if canon(lc.Kind) != canon(wc["kind"]) {
			r.add(f+".kind", lc.Kind, wc["kind"])
		}
		werr := str(wc["error"])
		if (lc.Error != "") != (werr != "") {
			r.add(f+".error", lc.Error, werr)
			continue
		}
		if lc.Error != "" {
			continue // the messages differ in wording only
		}
		winst := asList(wc["instances"])
		var lids, wids []string
		for _, li := range lc.Instances {
			lids = append(lids, li.ID)
		}
		for _, wi := range winst {
			wids = append(wids, str(asMap(wi)["id"]))
		}
		if strings.Join(lids, "\x00") != strings.Join(wids, "\x00") {
			r.add(f+".ids", lids, wids)
			continue
		}
		for i, li := range lc.Instances {
			compareInstance(r, fmt.Sprintf("%s[%s]", f, li.ID), li, asMap(winst[i]))
		}
	}
}

func compareInstance(r *recorder, f string, li ref.InstanceReading, wi map[string]any) {
	for _, k := range []struct {
		name string
		v    *int32
	}{{"replicas", li.Replicas}, {"minReplicas", li.MinReplicas}, {"maxReplicas", li.MaxReplicas}} {
		if number(k.v) != number(wi[k.name]) {
			r.add(f+"."+k.name, number(k.v), number(wi[k.name]))
		}
	}
	comparePod(r, f+".podTemplateSpec", li.PodTemplateSpec, wi["podTemplateSpec"], typed[corev1.PodTemplateSpec])
	comparePod(r, f+".podSpec", li.PodSpec, wi["podSpec"], typed[corev1.PodSpec])
	comparePod(r, f+".metadata", li.Metadata, wi["metadata"], typed[metav1.ObjectMeta])
	comparePod(r, f+".fragmentedPodSpec", li.FragmentedPodSpec, wi["fragmentedPodSpec"], typed[resource.FragmentedPodSpec])
}

func comparePod[T any](r *recorder, f string, lib *T, w any, norm func(any) (string, error)) {
	if lib == nil && w == nil {
		return
	}
	if lib != nil && w == nil && canon(lib) == canon(new(T)) {
		// the path gave null: the library decodes it into an empty value, wmap leaves it out
		r.add(f+".null", canon(lib), nil)
		return
	}
	if lib == nil || w == nil {
		r.add(f+".presence", lib != nil, w != nil)
		return
	}
	lv := canon(lib)
	wv, err := norm(w)
	if err != nil {
		r.add(f+".type", lv, "does not decode: "+err.Error())
		return
	}
	if lv != wv {
		r.add(f, lv, wv)
	}
}

// compareStatus compares the library's status with wmap's WorkloadStatus.
func compareStatus(r *recorder, lib ref.StatusReading, w map[string]any) {
	werr := ""
	if w["error"] != nil {
		werr = str(w["message"])
		if werr == "" {
			werr = show(w["error"])
		}
	}
	if (lib.Error != "") != (werr != "") {
		r.add("status.error", lib.Error, werr)
		return
	}
	if lib.Error != "" {
		return // the messages differ in wording only
	}
	lphase := "null"
	if lib.Phase != nil {
		lphase = show(*lib.Phase)
	}
	if lphase != show(w["phase"]) {
		r.add("status.phase", lphase, show(w["phase"]))
	}
	var lconds, wconds []string
	for _, c := range lib.Conditions {
		lconds = append(lconds, conditionString(c.Type, c.Status, c.Reason, c.Message))
	}
	for _, c := range asList(w["conditions"]) {
		m := asMap(c)
		var status, reason *string
		if s, ok := m["status"].(string); ok {
			status = &s
		}
		if s, ok := m["reason"].(string); ok {
			reason = &s
		}
		wconds = append(wconds, conditionString(str(m["type"]), status, reason, str(m["message"])))
	}
	if strings.Join(lconds, "\n") != strings.Join(wconds, "\n") {
		r.add("status.conditions", lconds, wconds)
	}
	var wmatched []string
	for _, s := range asList(w["matched"]) {
		wmatched = append(wmatched, str(s))
	}
	if strings.Join(lib.Matched, ",") != strings.Join(wmatched, ",") {
		r.add("status.matched", strings.Join(lib.Matched, ","), strings.Join(wmatched, ","))
	}
}

func conditionString(typ string, status, reason *string, message string) string {
	p := func(s *string) string {
		if s == nil {
			return "<nil>"
		}
		return *s
	}
	return fmt.Sprintf("%s=%s reason=%s message=%q", typ, p(status), p(reason), message)
}

// compareGangs compares the library's pod groups with wmap's WorkloadGangs; with pods, also the
// group each pod joins.
func compareGangs(r *recorder, lib ref.Gangs, w map[string]any, withPods bool) {
	werr := str(w["error"])
	if w["kind"] == "Error" {
		werr = str(w["message"])
	}
	lerr := lib.Error
	if lerr == "" && lib.Form == "podGroup" && len(lib.Gangs) == 1 {
		lerr = lib.Gangs[0].Error
	}
	if (lerr != "") != (werr != "") {
		r.add("gang.error", lerr, werr)
		return
	}
	if lerr != "" {
		return
	}
	if lib.Form != str(w["form"]) {
		r.add("gang.form", lib.Form, w["form"])
		return
	}
	switch lib.Form {
	case "podGroups":
		wgroups := map[string]map[string]any{}
		for _, g := range asList(w["podGroups"]) {
			wgroups[str(asMap(g)["name"])] = asMap(g)
		}
		for _, lg := range lib.PodGroups {
			wg := wgroups[lg.Name]
			wmembers := map[string]map[string]any{}
			for _, m := range asList(wg["members"]) {
				wmembers[str(asMap(m)["component"])] = asMap(m)
			}
			for _, lm := range lg.Members {
				f := "gang.podGroups." + lg.Name + "." + lm.Component
				wm, ok := wmembers[lm.Component]
				if !ok {
					r.add(f, "member", "absent")
					continue
				}
				werr := str(wm["error"])
				for _, in := range asList(wm["instances"]) {
					if e := str(asMap(in)["error"]); e != "" && werr == "" {
						werr = e
					}
				}
				if (lm.Error != "") != (werr != "") {
					r.add(f+".error", lm.Error, werr)
					continue
				}
				if lm.Error != "" {
					continue
				}
				var ls, ws []string
				for _, in := range lm.Instances {
					id := "-"
					if in.ID != nil {
						id = *in.ID
					}
					ls = append(ls, fmt.Sprintf("%s=%d", id, in.MinAvailable))
				}
				for _, in := range asList(wm["instances"]) {
					m := asMap(in)
					id := "-"
					if s, ok := m["id"].(string); ok {
						id = s
					}
					ws = append(ws, fmt.Sprintf("%s=%s", id, number(m["minAvailable"])))
				}
				if strings.Join(ls, ",") != strings.Join(ws, ",") {
					r.add(f+".minAvailable", strings.Join(ls, ","), strings.Join(ws, ","))
				}
			}
		}
	case "podGroup":
		if len(lib.Gangs) == 1 {
			compareGangV2(r, lib.Gangs[0], asList(w["gangs"]))
		}
	}
	if !withPods {
		return
	}
	wpods := map[string]map[string]any{}
	for _, p := range asList(w["pods"]) {
		wpods[str(asMap(p)["pod"])] = asMap(p)
	}
	minByGang := map[string][]string{}
	for _, lp := range lib.Pods {
		wp, ok := wpods[lp.Pod]
		if !ok {
			r.add("gang.pod.gang", lp.Pod+": "+lp.Gang, lp.Pod+": (pod not listed)")
			continue
		}
		lgang := lp.Gang
		if lp.Error != "" {
			lgang = "" // the group has no minimum: KAI cannot make it
		}
		if lgang != str(wp["gang"]) {
			r.add("gang.pod.gang", lp.Pod+": "+lp.Gang+" "+lp.Error, lp.Pod+": "+str(wp["gang"])+" "+str(wp["reason"]))
		}
		if lp.MinAvailable != nil {
			minByGang[lp.Gang] = appendUnique(minByGang[lp.Gang], fmt.Sprint(*lp.MinAvailable))
		}
	}
	if lib.Form != "podGroups" {
		return
	}
	for _, g := range asList(w["gangs"]) {
		m := asMap(g)
		mins := minByGang[str(m["name"])]
		if len(mins) == 0 {
			continue
		}
		found := false
		for _, v := range mins {
			found = found || v == number(m["minMember"])
		}
		if !found {
			r.add("gang.minMember", strings.Join(mins, "|"), number(m["minMember"]))
		}
	}
}

func compareGangV2(r *recorder, lg ref.GangReading, wgangs []any) {
	if len(wgangs) != 1 {
		r.add("gang.podGroup.count", 1, len(wgangs))
		return
	}
	wg := asMap(wgangs[0])
	if lg.Name != str(wg["name"]) {
		field := "gang.podGroup.name"
		if strings.HasPrefix(lg.Name, "pg--") {
			field += ".noUID" // an object without a uid (a manifest)
		}
		r.add(field, lg.Name, wg["name"])
	}
	if lg.Error != "" {
		r.add("gang.podGroup.error", lg.Error, "")
		return
	}
	if fmt.Sprint(lg.MinMember) != number(wg["minMember"]) {
		r.add("gang.podGroup.minMember", lg.MinMember, number(wg["minMember"]))
	}
	if fmt.Sprint(lg.MinSubGroup) != number(wg["minSubGroup"]) {
		r.add("gang.podGroup.minSubGroup", lg.MinSubGroup, number(wg["minSubGroup"]))
	}
	var ls, ws []string
	for _, sg := range lg.SubGroups {
		ls = append(ls, fmt.Sprintf("%s=%d", sg.Component, sg.MinMember))
	}
	for _, sg := range asList(wg["subGroups"]) {
		m := asMap(sg)
		if c := str(m["component"]); c != "" {
			ws = append(ws, fmt.Sprintf("%s=%s", c, number(m["minMember"])))
		}
	}
	sort.Strings(ls)
	sort.Strings(ws)
	if strings.Join(ls, ",") != strings.Join(ws, ",") {
		r.add("gang.podGroup.subGroups", strings.Join(ls, ","), strings.Join(ws, ","))
	}
}

// comparePlacement compares the component and instance of each pod: the library's
// InferPodComponent and InferPodComponentInstance against where wmap describe puts the pod.
func comparePlacement(r *recorder, lib ref.Gangs, describe map[string]any) {
	if describe["kind"] == "Error" {
		// wmap describes a workload as a whole, or not at all (as upstream's tree.Build)
		r.add("describe.error", "", describe["message"])
		return
	}
	type place struct{ comp, inst, reason string }
	wplace := map[string]place{}
	var walk func(comps []any)
	walk = func(comps []any) {
		for _, c := range comps {
			cm := asMap(c)
			for _, in := range asList(cm["instances"]) {
				im := asMap(in)
				for _, p := range asList(im["pods"]) {
					wplace[str(asMap(p)["name"])] = place{str(cm["name"]), str(im["id"]), ""}
				}
			}
			walk(asList(cm["children"]))
		}
	}
	walk(asList(describe["components"]))
	for _, u := range asList(describe["unattributed"]) {
		name := str(asMap(u)["name"])
		if name == "" {
			name = str(asMap(u)["pod"])
		}
		wplace[name] = place{"", "", str(asMap(u)["reason"])}
	}
	for _, lp := range lib.Pods {
		lpl := place{lp.Component, "", ""}
		if lp.Instance != nil {
			lpl.inst = *lp.Instance
		}
		if lp.InstanceError != "" {
			lpl = place{"", "", lp.InstanceError} // the library cannot place the pod
		}
		wpl, ok := wplace[lp.Pod]
		if !ok {
			r.add("pod.component", lp.Pod+": "+lpl.comp, lp.Pod+": (not in the description)")
			continue
		}
		if ownershipReason(wpl.reason) {
			// wmap places only the pods whose controller chain reaches the workload through
			// kinds the definition lists; the library judges each pod alone.
			if lpl.comp != "" {
				r.add("pod.ownership", lp.Pod+": "+lpl.comp, lp.Pod+": "+wpl.reason)
			}
			continue
		}
		if lpl.comp != wpl.comp {
			field := "pod.component"
			switch {
			case lpl.comp != "" && wpl.comp == "" && strings.HasPrefix(wpl.reason, "replica of component"):
				field = "pod.replicaKey"
			case lpl.comp != "" && wpl.comp == "" && strings.Contains(wpl.reason, "existing instance ids []"):
				field = "pod.noInstances"
			}
			r.add(field, lp.Pod+": "+lpl.comp+" "+lp.Error+lpl.reason, lp.Pod+": "+wpl.comp+" "+wpl.reason)
		} else if lpl.inst != wpl.inst {
			r.add("pod.instance", lp.Pod+": "+lpl.inst+" "+lp.Error, lp.Pod+": "+wpl.inst)
		}
	}
}

func ownershipReason(reason string) bool {
	return strings.HasPrefix(reason, "owner ") || strings.HasPrefix(reason, "no controller owner reference") ||
		strings.HasPrefix(reason, "the controller chain")
}
