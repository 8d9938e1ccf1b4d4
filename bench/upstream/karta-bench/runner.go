package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/itchyny/gojq"
	"github.com/run-ai/karta/pkg/jq/execution"
)

// codeCache holds every expression compiled once, keyed by its text and variable names. It is
// what upstream's library would need to stop compiling jq on every call.
type codeCache struct {
	codes    map[string]*gojq.Code
	errs     map[string]error
	compiles int
}

func newCodeCache() *codeCache {
	return &codeCache{codes: map[string]*gojq.Code{}, errs: map[string]error{}}
}

func (c *codeCache) get(expression string, variables []string) (*gojq.Code, error) {
	key := expression
	for _, v := range variables {
		key += "\x00" + v
	}
	if code, ok := c.codes[key]; ok {
		return code, nil
	}
	if err, ok := c.errs[key]; ok {
		return nil, err
	}
	c.compiles++
	parsed, err := gojq.Parse(expression)
	if err != nil {
		err = &execution.JQParseError{Expression: expression, Err: err}
		c.errs[key] = err
		return nil, err
	}
	code, err := gojq.Compile(parsed, gojq.WithVariables(variables))
	if err != nil {
		err = &execution.JQCompileError{Expression: expression, Err: err}
		c.errs[key] = err
		return nil, err
	}
	c.codes[key] = code
	return code, nil
}

// cachedRunner implements the library's execution.Runner exactly as its default runner does
// (the object converted to plain JSON values once, a 10 s timeout and at most 1000 results per
// query) except that expressions come compiled from a codeCache shared by every object.
type cachedRunner struct {
	source     any
	cache      *codeCache
	maxResults int
	timeout    time.Duration

	converted bool
	object    any
	objectErr error
}

var _ execution.Runner = (*cachedRunner)(nil)

func newCachedRunner(source any, cache *codeCache) *cachedRunner {
	return &cachedRunner{source: source, cache: cache, maxResults: 1000, timeout: 10 * time.Second}
}

func (r *cachedRunner) GetObject() (any, error) {
	if !r.converted {
		r.converted = true
		r.object, r.objectErr = toPlainJSON(r.source)
	}
	return r.object, r.objectErr
}

func (r *cachedRunner) Evaluate(ctx context.Context, expression string) ([]any, error) {
	obj, err := r.GetObject()
	if err != nil {
		return nil, fmt.Errorf("failed to get JSON data: %w", err)
	}
	code, err := r.cache.get(expression, nil)
	if err != nil {
		return nil, err
	}
	return r.run(ctx, code, obj, expression, nil)
}

func (r *cachedRunner) Assign(ctx context.Context, expression string, value any) error {
	return r.assign(ctx, fmt.Sprintf(`(%s) = $val`, expression), value)
}

func (r *cachedRunner) AssignZip(ctx context.Context, expression string, values []any) error {
	update := fmt.Sprintf(`[path(%s)] as $paths |
		if ($paths | length) == ($val | length) then
			reduce range($paths | length) as $i (.; setpath($paths[$i]; $val[$i]))
		else
			error("array length mismatch: expected " + ($paths | length | tostring) + " values but got " + ($val | length | tostring))
		end`, expression)
	return r.assign(ctx, update, values)
}

func (r *cachedRunner) assign(ctx context.Context, update string, value any) error {
	obj, err := r.GetObject()
	if err != nil {
		return fmt.Errorf("failed to get JSON data: %w", err)
	}
	plain, err := toPlainJSON(value)
	if err != nil {
		return err
	}
	code, err := r.cache.get(update, []string{"$val"})
	if err != nil {
		return err
	}
	out, err := r.run(ctx, code, obj, update, []any{plain})
	if err != nil {
		return err
	}
	if len(out) == 0 {
		return fmt.Errorf("update query returned no results for expression: %s", update)
	}
	r.object = out[0]
	return nil
}

func (r *cachedRunner) run(ctx context.Context, code *gojq.Code, input any, expression string, values []any) ([]any, error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	iter := code.RunWithContext(ctx, input, values...)
	var out []any
	for {
		v, ok := iter.Next()
		if !ok {
			return out, nil
		}
		if err, isErr := v.(error); isErr {
			return nil, &execution.JQExecutionError{Expression: expression, Err: err}
		}
		out = append(out, v)
		if len(out) >= r.maxResults {
			return nil, fmt.Errorf("query results exceed the allowed number %d", r.maxResults)
		}
	}
}

// toPlainJSON turns a value into maps, slices, strings, float64s and bools through encoding/json,
// as the library's runner does with its source.
func toPlainJSON(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("failed to marshal value to JSON: %w", err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("failed to unmarshal JSON data: %w", err)
	}
	return out, nil
}
