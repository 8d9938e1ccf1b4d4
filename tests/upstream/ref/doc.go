// Package ref evaluates workload objects through upstream's Karta Go library
// (github.com/run-ai/karta, the version KAI Scheduler pins) and returns documents in the shape of
// the ones wmap prints (wmap inspect/status/gang/describe -o json), restricted to the fields
// both can produce. It is the reference side of the differential test in this module.
package ref
