// Package nonet is for tests: it takes the network away from the default
// HTTP transport and counts what tried to use it.
package nonet

import (
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
)

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Block makes every request through http.DefaultTransport fail until the
// test ends, and returns the count of requests tried. It swaps a global: a
// test that calls it must not run in parallel.
func Block(t testing.TB) *atomic.Int32 {
	var requests atomic.Int32
	saved := http.DefaultTransport
	http.DefaultTransport = roundTripFunc(func(*http.Request) (*http.Response, error) {
		requests.Add(1)
		return nil, errors.New("network is disabled in tests")
	})
	t.Cleanup(func() { http.DefaultTransport = saved })
	return &requests
}
