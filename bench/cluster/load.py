#!/usr/bin/env python3
"""Fills an API server with workloads of ten types and their pods, for bench/cluster.sh.

The workloads come from the shared corpus generator (../shared/bench/gen_workloads.py: JobSet,
LeaderWorkerSet, RayCluster, PyTorchJob, DynamoGraphDeployment, Deployment, Job), with every
fourth Deployment turned into a StatefulSet, a ReplicaSet or a DaemonSet so that ten types are
served; what the server sets (uid, resourceVersion, status...) is dropped before the create.
Each workload gets --pods-per pods whose controller owner is the workload. One extra JobSet,
`big` in namespace `bench-big`, gets --big-pods pods (the describe case).

    python3 bench/cluster/load.py --env DIR/cluster.env -n 5000 --pods-per 10 --big-pods 1000
"""
import argparse
import concurrent.futures
import json
import os
import sys
import threading

import requests

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# kind -> (API path prefix, plural)
PATHS = {
    "JobSet": ("/apis/jobset.x-k8s.io/v1alpha2", "jobsets"),
    "LeaderWorkerSet": ("/apis/leaderworkerset.x-k8s.io/v1", "leaderworkersets"),
    "RayCluster": ("/apis/ray.io/v1", "rayclusters"),
    "PyTorchJob": ("/apis/kubeflow.org/v1", "pytorchjobs"),
    "DynamoGraphDeployment": ("/apis/nvidia.com/v1alpha1", "dynamographdeployments"),
    "Deployment": ("/apis/apps/v1", "deployments"),
    "StatefulSet": ("/apis/apps/v1", "statefulsets"),
    "ReplicaSet": ("/apis/apps/v1", "replicasets"),
    "DaemonSet": ("/apis/apps/v1", "daemonsets"),
    "Job": ("/apis/batch/v1", "jobs"),
}
SERVER_SET = ("uid", "resourceVersion", "creationTimestamp", "generation", "managedFields",
              "ownerReferences", "selfLink", "deletionTimestamp")


def for_create(obj, index):
    obj.pop("status", None)
    md = obj["metadata"]
    for key in SERVER_SET:
        md.pop(key, None)
    md.get("annotations", {}).pop("kubectl.kubernetes.io/last-applied-configuration", None)
    md["name"] = "%s-%d" % (md["name"][:40].rstrip("-"), index)
    if obj["kind"] == "Job":
        # The server makes the selector and its labels from the uid.
        obj["spec"].pop("selector", None)
        obj["spec"].pop("manualSelector", None)
        labels = obj["spec"]["template"].get("metadata", {}).get("labels", {})
        for key in list(labels):
            if "controller-uid" in key or key in ("job-name", "batch.kubernetes.io/job-name"):
                del labels[key]
    if obj["kind"] in ("Job", "Deployment"):
        # The server validates built-in pod templates: limits no lower than requests, extended
        # resources (GPUs) with requests equal to limits.
        pod_spec = obj["spec"]["template"]["spec"]
        for c in pod_spec.get("containers", []) + pod_spec.get("initContainers", []):
            r = c.get("resources", {})
            limits = r.pop("limits", {})
            requests_ = r.setdefault("requests", {})
            extended = {k: limits.get(k, requests_.get(k)) for k in set(limits) | set(requests_)
                        if "/" in k}
            requests_.update(extended)
            if extended:
                r["limits"] = dict(extended)
    if obj["kind"] == "Deployment" and index % 4:
        spec = obj["spec"]
        kind = ["Deployment", "StatefulSet", "ReplicaSet", "DaemonSet"][index % 4]
        obj["kind"] = kind
        keep = {"selector": spec["selector"], "template": spec["template"]}
        if kind != "DaemonSet":
            keep["replicas"] = spec.get("replicas", 1)
        if kind == "StatefulSet":
            keep["serviceName"] = md["name"]
        obj["spec"] = keep
    return obj


class Api:
    def __init__(self, env):
        self.server = env["WMAP_CLUSTER_SERVER"]
        self.ca = env["WMAP_CLUSTER_CA"]
        self.cert = (env["WMAP_CLUSTER_ADMIN_CERT"], env["WMAP_CLUSTER_ADMIN_KEY"])
        self.local = threading.local()
        self.tolerate_invalid = False
        self.refused = 0

    def post(self, path, obj):
        session = getattr(self.local, "session", None)
        if session is None:
            session = self.local.session = requests.Session()
            # The cluster's own CA, not a bundle named by REQUESTS_CA_BUNDLE and the like.
            session.trust_env = False
            session.verify = self.ca
            session.cert = self.cert
        r = session.post(self.server + path, json=obj, timeout=120)
        if r.status_code == 409:
            return None
        if r.status_code == 422 and self.tolerate_invalid:
            # A generated pod template the server's validation of built-in kinds refuses.
            self.refused += 1
            return None
        if r.status_code >= 300:
            raise RuntimeError("POST %s: %d %s" % (path, r.status_code, r.text[:300]))
        return r.json()


def pod(owner, ns, i):
    return {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {
            "name": "%s-pod-%d" % (owner["metadata"]["name"], i), "namespace": ns,
            "labels": {"bench": "yes"},
            "ownerReferences": [{
                "apiVersion": owner["apiVersion"], "kind": owner["kind"],
                "name": owner["metadata"]["name"], "uid": owner["metadata"]["uid"],
                "controller": True, "blockOwnerDeletion": True}]},
        "spec": {"containers": [{"name": "main", "image": "registry.example/trainer:1",
                                 "resources": {"requests": {"cpu": "2", "memory": "8Gi",
                                                            "nvidia.com/gpu": "1"},
                                               "limits": {"nvidia.com/gpu": "1"}}}]},
    }


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--env", required=True, help="cluster.env of scripts/dev-cluster.sh")
    p.add_argument("-n", type=int, default=5000)
    p.add_argument("--pods-per", type=int, default=10)
    p.add_argument("--big-pods", type=int, default=1000)
    p.add_argument("--threads", type=int, default=8)
    a = p.parse_args()
    env = dict(line.strip().split("=", 1) for line in open(a.env) if "=" in line)
    api = Api(env)
    sys.path.insert(0, os.path.join(os.environ.get("SHARED", os.path.join(ROOT, "..", "shared")),
                                    "bench"))
    import gen_workloads  # the shared corpus generator

    # Objects the server refuses are replaced by the next ones, until N are made.
    objects, next_index = [], 0

    def candidates(count):
        nonlocal next_index
        out = [for_create(gen_workloads.make_object(42, i), i)
               for i in range(next_index, next_index + count)]
        next_index += count
        return out

    objects = candidates(a.n)
    namespaces = sorted({o["metadata"]["namespace"] for o in objects} | {"bench-big"})
    for ns in namespaces:
        api.post("/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace",
                                        "metadata": {"name": ns}})
    big = {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
           "metadata": {"name": "big", "namespace": "bench-big"},
           "spec": {"replicatedJobs": [{"name": "workers", "replicas": 1, "template": {"spec": {
               "parallelism": a.big_pods, "completions": a.big_pods, "template": {"spec": {
                   "restartPolicy": "Never",
                   "containers": [{"name": "main", "image": "registry.example/trainer:1"}]}}}}}]}}

    def create(obj):
        prefix, plural = PATHS[obj["kind"]]
        ns = obj["metadata"]["namespace"]
        return api.post("%s/namespaces/%s/%s" % (prefix, ns, plural), obj)

    with concurrent.futures.ThreadPoolExecutor(a.threads) as pool:
        api.tolerate_invalid = True
        made = [m for m in pool.map(create, objects + [big]) if m is not None]
        while len(made) < a.n + 1:
            more = candidates(a.n + 1 - len(made))
            for ns in sorted({o["metadata"]["namespace"] for o in more} - set(namespaces)):
                namespaces.append(ns)
                api.post("/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace",
                                                "metadata": {"name": ns}})
            made += [m for m in pool.map(create, more) if m is not None]
        api.tolerate_invalid = False
        print("refused by validation and replaced:", api.refused, file=sys.stderr)
        counts = {}
        for m in made:
            counts[m["kind"]] = counts.get(m["kind"], 0) + 1
        print("workloads:", json.dumps(counts, sort_keys=True), file=sys.stderr)
        pods = []
        for m in made:
            n = a.big_pods if m["metadata"]["name"] == "big" else a.pods_per
            pods += [pod(m, m["metadata"]["namespace"], i) for i in range(n)]
        done = sum(1 for r in pool.map(
            lambda o: api.post("/api/v1/namespaces/%s/pods" % o["metadata"]["namespace"], o),
            pods) if r is not None)
        print("pods:", done, file=sys.stderr)


if __name__ == "__main__":
    main()
