package cluster

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// The catalog's kinds that ../shared/schemas/crds has no CRD for, and the training-operator's
// kubeflow.org/v1 MPIJob, whose CRD has the same name as the installed mpi-operator v2beta1 one.
var notServed = map[string]string{
	"argoproj.io/v1alpha1 WorkflowTemplate":      "no CRD in the shared data",
	"batch.volcano.sh/v1alpha1 CronJob":          "no CRD in the shared data",
	"kubevirt.io/v1 VirtualMachineInstance":      "no CRD in the shared data",
	"sparkoperator.k8s.io/v1alpha1 SparkConnect": "no CRD in the shared data",
	"kubeflow.org/v1 MPIJob":                     "mpijobs.kubeflow.org is mpi-operator's (v2beta1)",
	"batch/v1beta1 CronJob":                      "removed from Kubernetes in 1.25",
}

// restricted reads DIR/only-versions.txt: for each CRD that dev-cluster.sh up --only-version
// installed with a single version, its group and kind -> that version.
func (c *cluster) restricted(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(c.dir, "only-versions.txt"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		name, version, _ := strings.Cut(line, " ")
		crd := c.getJSON(t, "customresourcedefinition", name)
		out[str(crd, "spec", "group")+" "+str(crd, "spec", "names", "kind")] = version
	}
	return out
}

func TestCRDsEstablished(t *testing.T) {
	c := need(t)
	data, err := os.ReadFile(filepath.Join(c.dir, "crds.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(data))
	if len(want) < 2 {
		t.Fatalf("%s/crds.txt lists %d CRDs", c.dir, len(want))
	}
	list := c.getJSON(t, "customresourcedefinitions")
	conds := map[string]map[string]string{}
	items, _ := list["items"].([]any)
	for _, it := range items {
		m := map[string]string{}
		cs, _ := field(it, "status", "conditions").([]any)
		for _, cond := range cs {
			m[str(cond, "type")] = str(cond, "status")
		}
		conds[str(it, "metadata", "name")] = m
	}
	for _, name := range want {
		m, ok := conds[name]
		switch {
		case !ok:
			t.Errorf("CRD %s is not installed", name)
		case m["Established"] != "True" || m["NamesAccepted"] != "True":
			t.Errorf("CRD %s: conditions %v, want Established and NamesAccepted True", name, m)
		}
	}
	t.Logf("%d CRDs established", len(want))
}

// Every workload kind of the built-in catalog is served, except those listed in notServed.
func TestCatalogKindsServed(t *testing.T) {
	c := need(t)
	files, err := filepath.Glob(filepath.Join(c.repo, "catalog", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no catalog definitions: %v", err)
	}
	served := map[string]map[string]bool{} // group/version -> kinds
	kindsOf := func(gv string) map[string]bool {
		if k, ok := served[gv]; ok {
			return k
		}
		k := map[string]bool{}
		path := "/apis/" + gv
		if !strings.Contains(gv, "/") {
			path = "/api/" + gv
		}
		if out, _, err := c.kubectl("admin", nil, "get", "--raw", path); err == nil {
			var list struct {
				Resources []struct{ Kind, Name string }
			}
			if err := json.Unmarshal([]byte(out), &list); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			for _, r := range list.Resources {
				if !strings.Contains(r.Name, "/") {
					k[r.Kind] = true
				}
			}
		}
		served[gv] = k
		return k
	}
	only := c.restricted(t)
	var missing []string
	seen := map[string]bool{}
	for _, f := range files {
		objs := readObjects(t, f)
		if len(objs) != 1 {
			t.Fatalf("%s: %d documents", f, len(objs))
		}
		kind := field(objs[0], "spec", "structureDefinition", "rootComponent", "kind")
		group, version, name := str(kind, "group"), str(kind, "version"), str(kind, "kind")
		if version == "" || name == "" {
			t.Fatalf("%s: no root kind", f)
		}
		gv := version
		if group != "" {
			gv = group + "/" + version
		}
		key := gv + " " + name
		seen[key] = true
		if v, ok := only[group+" "+name]; ok && v != version && !kindsOf(gv)[name] {
			t.Logf("%s is not served: the cluster serves %s only (--only-version)", key, v)
			continue
		}
		if !kindsOf(gv)[name] {
			if _, known := notServed[key]; !known {
				missing = append(missing, fmt.Sprintf("%s (%s)", key, filepath.Base(f)))
			}
		} else if reason, known := notServed[key]; known {
			t.Errorf("%s is served now (listed as not served: %s); remove it from notServed", key, reason)
		}
	}
	for key := range notServed {
		if !seen[key] {
			t.Errorf("notServed lists %s, which no catalog definition has", key)
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("catalog kind not served by the cluster: %s", m)
	}
	t.Logf("%d catalog kinds, %d of them not served: %v", len(seen), len(notServed), notServed)
}

// workloadFiles are the examples' workloads (their children are in the *.pods.yaml files).
func workloadFiles(t *testing.T, c *cluster) []string {
	t.Helper()
	all, err := filepath.Glob(filepath.Join(c.repo, "examples", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range all {
		if !strings.HasSuffix(f, ".pods.yaml") {
			files = append(files, f)
		}
	}
	if len(files) != 4 {
		t.Fatalf("want the 4 example workloads in examples/, found %v", files)
	}
	return files
}

// forCreate strips what the server sets (uid, resourceVersion, timestamps, status) from an
// object read from a file.
func forCreate(obj map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range obj {
		if k != "status" {
			out[k] = v
		}
	}
	meta := map[string]any{}
	for k, v := range obj["metadata"].(map[string]any) {
		switch k {
		case "uid", "resourceVersion", "generation", "creationTimestamp", "managedFields",
			"selfLink", "deletionTimestamp":
		default:
			meta[k] = v
		}
	}
	out["metadata"] = meta
	return out
}

// resourceOf is the kubectl name of an object's kind: kind.version.group.
func resourceOf(obj map[string]any) string {
	gv := str(obj, "apiVersion")
	kind := strings.ToLower(str(obj, "kind"))
	group, version, ok := strings.Cut(gv, "/")
	if !ok {
		return kind
	}
	return kind + "." + version + "." + group
}

// createWithStatus creates obj as admin with kubectl, then sets the status the file gives
// through the status subresource, and returns the object as the server has it.
func (c *cluster) createWithStatus(t *testing.T, obj map[string]any) map[string]any {
	t.Helper()
	ns, name := str(obj, "metadata", "namespace"), str(obj, "metadata", "name")
	c.must(t, toJSON(t, forCreate(obj)), "create", "-f", "-")
	if status, ok := obj["status"].(map[string]any); ok && len(status) > 0 {
		if str(obj, "kind") == "Pod" {
			// The server computes a pod's QoS class when it creates the pod and keeps it.
			status = withoutKey(status, "qosClass")
		}
		patch := toJSON(t, map[string]any{"status": status})
		c.must(t, nil, "patch", resourceOf(obj), name, "-n", ns, "--subresource=status",
			"--type=merge", "-p", string(patch))
	}
	return c.getJSON(t, resourceOf(obj), name, "-n", ns)
}

// The four example workloads are created as the files give them, their status included: the
// server keeps every field (nothing is pruned by the CRDs' schemas).
func TestExamplesCreate(t *testing.T) {
	c := need(t)
	for _, f := range workloadFiles(t, c) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			for _, obj := range readObjects(t, f) {
				ns, name := str(obj, "metadata", "namespace"), str(obj, "metadata", "name")
				c.ensureNamespace(t, ns)
				got := c.createWithStatus(t, obj)
				if str(got, "metadata", "uid") == "" {
					t.Fatalf("%s %s/%s has no uid", str(obj, "kind"), ns, name)
				}
				for _, part := range []string{"spec", "status"} {
					if want, ok := obj[part]; ok {
						if d := contains(got[part], want, part); d != "" {
							t.Errorf("%s %s/%s as stored differs from %s: %s", str(obj, "kind"), ns, name,
								filepath.Base(f), d)
						}
					}
				}
			}
		})
	}
}

// The JobSet example's Jobs and Pods are created as its children (ownerReferences to the live
// owners' uids) and their status is set through the status subresource.
func TestChildrenWithOwnersAndStatus(t *testing.T) {
	c := need(t)
	jobset := c.getJSON(t, "jobsets.v1alpha2.jobset.x-k8s.io", "llama-finetune", "-n", "ml-training")
	uids := map[string]string{"JobSet/llama-finetune": str(jobset, "metadata", "uid")}
	children := readObjects(t, filepath.Join(c.repo, "examples", "jobset-training.pods.yaml"))
	jobs, pods := 0, 0
	for _, kind := range []string{"Job", "Pod"} { // owners first
		for _, obj := range children {
			if str(obj, "kind") != kind {
				continue
			}
			name := str(obj, "metadata", "name")
			refs, _ := field(obj, "metadata", "ownerReferences").([]any)
			if len(refs) != 1 {
				t.Fatalf("%s %s: want one owner reference, got %d", kind, name, len(refs))
			}
			ref := refs[0].(map[string]any)
			owner := str(ref, "kind") + "/" + str(ref, "name")
			uid, ok := uids[owner]
			if !ok {
				t.Fatalf("%s %s: owner %s was not created", kind, name, owner)
			}
			ref["uid"] = uid
			if kind == "Job" {
				// The server generates the selector and the controller-uid labels from the new
				// Job's uid, as for any Job created without manualSelector.
				spec := obj["spec"].(map[string]any)
				delete(spec, "selector")
				labels, _ := field(spec, "template", "metadata", "labels").(map[string]any)
				for _, l := range []string{"batch.kubernetes.io/controller-uid", "controller-uid"} {
					delete(labels, l)
				}
			}
			got := c.createWithStatus(t, obj)
			uids[kind+"/"+name] = str(got, "metadata", "uid")

			gotRefs, _ := field(got, "metadata", "ownerReferences").([]any)
			if len(gotRefs) != 1 || str(gotRefs[0], "uid") != uid || field(gotRefs[0], "controller") != true {
				t.Errorf("%s %s: ownerReferences %v, want the controller %s uid %s", kind, name, gotRefs, owner, uid)
			}
			switch kind {
			case "Job":
				jobs++
				for _, k := range []string{"active", "ready", "startTime"} {
					if fmt.Sprint(field(got, "status", k)) != fmt.Sprint(field(obj, "status", k)) {
						t.Errorf("Job %s: status.%s %v, want %v", name, k, field(got, "status", k), field(obj, "status", k))
					}
				}
			case "Pod":
				pods++
				if str(got, "status", "phase") != "Running" || str(got, "spec", "nodeName") != str(obj, "spec", "nodeName") {
					t.Errorf("Pod %s: phase %q on %q, want Running on %q", name, str(got, "status", "phase"),
						str(got, "spec", "nodeName"), str(obj, "spec", "nodeName"))
				}
				if d := contains(got["status"], withoutKey(obj["status"].(map[string]any), "qosClass"), "status"); d != "" {
					t.Errorf("Pod %s: %s", name, d)
				}
			}
		}
	}
	if jobs != 5 || pods != 9 {
		t.Fatalf("created %d Jobs and %d Pods, want 5 and 9", jobs, pods)
	}

	// Status moves on through the subresource: one worker pod fails.
	pod := "llama-finetune-workers-0-0-8tnvl"
	c.must(t, nil, "patch", "pod", pod, "-n", "ml-training", "--subresource=status", "--type=merge",
		"-p", `{"status":{"phase":"Failed","conditions":[{"type":"Ready","status":"False"}]}}`)
	if got := c.getJSON(t, "pod", pod, "-n", "ml-training"); str(got, "status", "phase") != "Failed" {
		t.Errorf("pod %s: phase %q after the status patch, want Failed", pod, str(got, "status", "phase"))
	}
	// A patch of the object itself does not change its status.
	c.must(t, nil, "patch", "job", "llama-finetune-workers-0", "-n", "ml-training", "--type=merge",
		"-p", `{"metadata":{"labels":{"checked":"yes"}},"status":{"active":7}}`)
	if got := c.getJSON(t, "job", "llama-finetune-workers-0", "-n", "ml-training"); fmt.Sprint(field(got, "status", "active")) != "2" ||
		str(got, "metadata", "labels", "checked") != "yes" {
		t.Errorf("job: labels %v, status.active %v after a main-resource patch, want the label and active 2",
			field(got, "metadata", "labels"), field(got, "status", "active"))
	}
}

// The token user authenticates with its bearer token, through kubectl and plain HTTPS.
func TestTokenUser(t *testing.T) {
	c := need(t)
	out, errOut, err := c.kubectl("token", nil, "auth", "whoami", "-o", "json")
	if err != nil {
		t.Fatalf("kubectl auth whoami as the token user: %v\n%s", err, errOut)
	}
	var review struct {
		Status struct {
			UserInfo struct {
				Username string
				Groups   []string
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &review); err != nil {
		t.Fatal(err)
	}
	if review.Status.UserInfo.Username != c.tokenUser {
		t.Errorf("token user is %q, want %q", review.Status.UserInfo.Username, c.tokenUser)
	}
	if !hasString(review.Status.UserInfo.Groups, "system:masters") {
		t.Errorf("token user's groups %v lack system:masters", review.Status.UserInfo.Groups)
	}
	if _, errOut, err := c.kubectl("token", nil, "get", "namespaces", "default"); err != nil {
		t.Errorf("token user cannot get namespace default: %v\n%s", err, errOut)
	}

	client := c.httpClient(t, "", "")
	if code, body := c.request(t, client, "GET", "/api/v1/namespaces/default", c.token); code != http.StatusOK {
		t.Errorf("GET namespace default with the token: %d %s", code, body)
	}
	if code, _ := c.request(t, client, "GET", "/api/v1/namespaces/default", "not-"+c.token); code != http.StatusUnauthorized {
		t.Errorf("GET with a wrong token: %d, want 401", code)
	}
	if code, _ := c.request(t, client, "GET", "/api/v1/namespaces/default", ""); code != http.StatusForbidden {
		t.Errorf("GET as anonymous: %d, want 403", code)
	}
	admin := c.httpClient(t, c.adminCert, c.adminKey)
	if code, body := c.request(t, admin, "GET", "/apis/batch/v1/namespaces/ml-training/jobs", ""); code != http.StatusOK {
		t.Errorf("GET jobs with the admin certificate: %d %s", code, body)
	}
}

func withoutKey(m map[string]any, key string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}

func hasString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// alice (a client certificate, no group, no binding) may list nothing; a RoleBinding gives her
// one namespace and only that one.
func TestAliceRBAC(t *testing.T) {
	c := need(t)
	const other = "ml-training"
	ns := fmt.Sprintf("alice-%d", time.Now().UnixNano())
	c.ensureNamespace(t, other)
	c.must(t, nil, "create", "namespace", ns)
	c.must(t, nil, "create", "job", "probe", "-n", ns, "--image=busybox")

	forbidden := func(namespace string) string {
		_, errOut, err := c.kubectl("alice", nil, "get", "jobs", "-n", namespace)
		if err == nil {
			return fmt.Sprintf("alice listed jobs in %s", namespace)
		}
		want := fmt.Sprintf(`User "alice" cannot list resource "jobs" in API group "batch" in the namespace "%s"`, namespace)
		if !strings.Contains(errOut, "Forbidden") || !strings.Contains(errOut, want) {
			return fmt.Sprintf("alice in %s: %q, want Forbidden: %s", namespace, errOut, want)
		}
		return ""
	}
	for _, n := range []string{ns, other} {
		if msg := forbidden(n); msg != "" {
			t.Fatal(msg)
		}
	}
	alice := c.httpClient(t, c.aliceCert, c.aliceKey)
	if code, body := c.request(t, alice, "GET", "/apis/batch/v1/namespaces/"+ns+"/jobs", ""); code != http.StatusForbidden {
		t.Fatalf("GET jobs as alice over HTTPS: %d %s, want 403", code, body)
	}

	c.must(t, nil, "create", "role", "job-reader", "-n", ns, "--verb=get,list,watch", "--resource=jobs.batch")
	c.must(t, nil, "create", "rolebinding", "alice-job-reader", "-n", ns, "--role=job-reader", "--user=alice")
	eventually(t, 30*time.Second, func() string {
		out, errOut, err := c.kubectl("alice", nil, "get", "jobs", "-n", ns, "-o", "name")
		if err != nil {
			return fmt.Sprintf("alice cannot list jobs in %s after the RoleBinding: %s", ns, errOut)
		}
		if strings.TrimSpace(out) != "job.batch/probe" {
			return fmt.Sprintf("alice lists %q in %s, want job.batch/probe", out, ns)
		}
		return ""
	})
	if code, body := c.request(t, alice, "GET", "/apis/batch/v1/namespaces/"+ns+"/jobs", ""); code != http.StatusOK {
		t.Errorf("GET jobs as alice over HTTPS after the RoleBinding: %d %s", code, body)
	}
	if msg := forbidden(other); msg != "" {
		t.Error(msg)
	}
	if _, _, err := c.kubectl("alice", nil, "delete", "job", "probe", "-n", ns); err == nil {
		t.Error("alice deleted a job with a read-only Role")
	}
}

// restart-apiserver stops kube-apiserver and starts it on the same port; etcd keeps the data,
// and an open watch ends.
func TestRestartAPIServer(t *testing.T) {
	c := need(t)
	ns := fmt.Sprintf("restart-%d", time.Now().UnixNano())
	c.must(t, nil, "create", "namespace", ns)
	c.must(t, nil, "create", "configmap", "before", "-n", ns, "--from-literal=k=v")
	uid := str(c.getJSON(t, "configmap", "before", "-n", ns), "metadata", "uid")

	watch := exec.Command(filepath.Join(c.bin, "kubectl"), "--kubeconfig", c.kubeconfig, "get",
		"configmaps", "-n", ns, "--watch", "-o", "name")
	watch.Stderr = nil
	stdout, err := watch.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := watch.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan string, 1)
	go func() {
		var seen strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := stdout.Read(buf)
			seen.Write(buf[:n])
			if err != nil {
				ended <- seen.String()
				return
			}
		}
	}()
	defer func() {
		_ = watch.Process.Kill()
		_ = watch.Wait()
	}()
	time.Sleep(time.Second)

	script := exec.Command("bash", filepath.Join(c.repo, "scripts", "dev-cluster.sh"), "restart-apiserver", "--dir", c.dir)
	if out, err := script.CombinedOutput(); err != nil {
		t.Fatalf("dev-cluster.sh restart-apiserver: %v\n%s", err, out)
	}
	select {
	case seen := <-ended:
		if !strings.Contains(seen, "configmap/before") {
			t.Errorf("the watch printed %q, want configmap/before", seen)
		}
	case <-time.After(30 * time.Second):
		t.Error("a kubectl watch still runs 30 s after the API server was restarted")
	}
	if got := str(c.getJSON(t, "configmap", "before", "-n", ns), "metadata", "uid"); got != uid {
		t.Errorf("configmap after the restart has uid %q, want %q", got, uid)
	}
	if out := c.must(t, nil, "get", "--raw", "/readyz"); out != "ok" {
		t.Errorf("/readyz after the restart: %q", out)
	}
	c.must(t, nil, "create", "configmap", "after", "-n", ns, "--from-literal=k=v")
}
