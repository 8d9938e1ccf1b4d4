// Package cluster tests the API server that scripts/dev-cluster.sh starts: the CRDs of the
// catalog's kinds, the repository's examples and their children, status subresources, and the
// three users of the kubeconfig. scripts/test_cluster.sh starts the cluster and sets
// WMAP_CLUSTER_DIR; without it every test is skipped.
package cluster

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"
)

// cluster is what scripts/dev-cluster.sh wrote into DIR/cluster.env.
type cluster struct {
	dir, bin, server, kubeconfig, ca string
	adminCert, adminKey              string
	token, tokenUser                 string
	aliceCert, aliceKey              string
	repo                             string
}

var env *cluster

func loadCluster() (*cluster, error) {
	dir := os.Getenv("WMAP_CLUSTER_DIR")
	if dir == "" {
		return nil, nil
	}
	f, err := os.Open(filepath.Join(dir, "cluster.env"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	vars := map[string]string{}
	s := bufio.NewScanner(f)
	for s.Scan() {
		if k, v, ok := strings.Cut(s.Text(), "="); ok {
			vars[k] = v
		}
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		return nil, err
	}
	c := &cluster{
		dir: dir, bin: vars["WMAP_CLUSTER_BIN"], server: vars["WMAP_CLUSTER_SERVER"],
		kubeconfig: vars["WMAP_CLUSTER_KUBECONFIG"], ca: vars["WMAP_CLUSTER_CA"],
		adminCert: vars["WMAP_CLUSTER_ADMIN_CERT"], adminKey: vars["WMAP_CLUSTER_ADMIN_KEY"],
		token: vars["WMAP_CLUSTER_TOKEN"], tokenUser: vars["WMAP_CLUSTER_TOKEN_USER"],
		aliceCert: vars["WMAP_CLUSTER_ALICE_CERT"], aliceKey: vars["WMAP_CLUSTER_ALICE_KEY"],
		repo: repo,
	}
	for name, v := range map[string]string{"WMAP_CLUSTER_BIN": c.bin, "WMAP_CLUSTER_SERVER": c.server,
		"WMAP_CLUSTER_KUBECONFIG": c.kubeconfig, "WMAP_CLUSTER_CA": c.ca, "WMAP_CLUSTER_TOKEN": c.token} {
		if v == "" {
			return nil, fmt.Errorf("%s/cluster.env has no %s", dir, name)
		}
	}
	return c, nil
}

func TestMain(m *testing.M) {
	var err error
	env, err = loadCluster()
	if err != nil {
		fmt.Fprintln(os.Stderr, "cluster tests:", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func need(t *testing.T) *cluster {
	t.Helper()
	if env == nil {
		t.Skip("WMAP_CLUSTER_DIR is not set (scripts/test_cluster.sh starts a cluster and sets it)")
	}
	return env
}

// kubectl runs the real kubectl as the user of context ctx (admin, token or alice).
func (c *cluster) kubectl(ctx string, stdin []byte, args ...string) (stdout, stderr string, err error) {
	cmdCtx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	all := append([]string{"--kubeconfig", c.kubeconfig, "--context", ctx}, args...)
	cmd := exec.CommandContext(cmdCtx, filepath.Join(c.bin, "kubectl"), all...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// must runs kubectl as admin and fails the test when it fails.
func (c *cluster) must(t *testing.T, stdin []byte, args ...string) string {
	t.Helper()
	out, errOut, err := c.kubectl("admin", stdin, args...)
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, errOut)
	}
	return out
}

// getJSON runs kubectl get ... -o json as admin and decodes the result.
func (c *cluster) getJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	out := c.must(t, nil, append(append([]string{"get"}, args...), "-o", "json")...)
	var obj map[string]any
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatalf("kubectl get %s: %v", strings.Join(args, " "), err)
	}
	return obj
}

// ensureNamespace creates namespace ns unless it exists.
func (c *cluster) ensureNamespace(t *testing.T, ns string) {
	t.Helper()
	if _, _, err := c.kubectl("admin", nil, "get", "namespace", ns); err == nil {
		return
	}
	c.must(t, nil, "create", "namespace", ns)
}

// httpClient speaks HTTPS to the server trusting only the cluster's CA, as a program without
// kubectl or client-go would: with a client certificate (certFile, keyFile) or neither.
func (c *cluster) httpClient(t *testing.T, certFile, keyFile string) *http.Client {
	t.Helper()
	caPEM, err := os.ReadFile(c.ca)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		t.Fatalf("no certificate in %s", c.ca)
	}
	cfg := &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	if certFile != "" {
		pair, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: cfg}}
}

// request sends one request and returns the status code and body.
func (c *cluster) request(t *testing.T, client *http.Client, method, path, token string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, c.server+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	var body bytes.Buffer
	if _, err := body.ReadFrom(resp.Body); err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return resp.StatusCode, body.Bytes()
}

var docSeparator = regexp.MustCompile(`(?m)^---[ \t]*$`)

// readObjects reads the objects of a multi-document YAML file.
func readObjects(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var objs []map[string]any
	for i, doc := range docSeparator.Split(string(data), -1) {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatalf("%s: document %d: %v", path, i+1, err)
		}
		if obj != nil {
			objs = append(objs, obj)
		}
	}
	return objs
}

// field walks obj along keys; nil when a key is missing.
func field(obj any, keys ...string) any {
	for _, k := range keys {
		m, ok := obj.(map[string]any)
		if !ok {
			return nil
		}
		obj = m[k]
	}
	return obj
}

func str(obj any, keys ...string) string {
	s, _ := field(obj, keys...).(string)
	return s
}

// contains reports the first place where want has a value got lacks or differs in: every key
// of a map in want must be in got with a contained value, lists element by element. Defaults
// the server adds are allowed; fields it pruned or changed are not.
func contains(got, want any, path string) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: got %T, want an object", path, got)
		}
		for k, v := range w {
			if d := contains(g[k], v, path+"."+k); d != "" {
				return d
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: got %v, want %d items", path, got, len(w))
		}
		for i := range w {
			if d := contains(g[i], w[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	default:
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Sprintf("%s: got %v, want %v", path, got, want)
		}
		return ""
	}
}

// eventually retries check until it returns "" or the time is up, then fails with its message.
func eventually(t *testing.T, d time.Duration, check func() string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		msg := check()
		if msg == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s: %s", d, msg)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func toJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
