package specs

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/apiver/apiver/versions"
	"github.com/getkin/kin-openapi/openapi3"
)

// DetectProduct finds the <product> of the vendor media types in the
// documents. It is an error for them to name two products. An empty result
// means no document carries a version.
func DetectProduct(snapshots ...*Snapshot) (string, error) {
	first := map[string]string{} // product -> file that names it first
	var products []string
	for _, s := range snapshots {
		eachMediaType(s.Doc, func(name string) {
			mt, ok, err := versions.ParseMediaType(name)
			var invalid *versions.InvalidVersionError
			if errors.As(err, &invalid) {
				mt, ok = versions.ProductOfInvalid(name), true
			}
			if !ok {
				return
			}
			if _, seen := first[mt.Product]; !seen {
				first[mt.Product] = s.Path
				products = append(products, mt.Product)
			}
		})
	}
	switch len(products) {
	case 0:
		return "", nil
	case 1:
		return products[0], nil
	}
	slices.Sort(products)
	return "", &Error{File: first[products[1]], Msg: fmt.Sprintf("media types of two products (%s): set `product` in the config to choose one", strings.Join(products, ", "))}
}

func eachMediaType(doc *openapi3.T, fn func(string)) {
	visit := func(op *openapi3.Operation) {
		if op.RequestBody != nil && op.RequestBody.Value != nil {
			for name := range op.RequestBody.Value.Content {
				fn(name)
			}
		}
		if op.Responses == nil {
			return
		}
		for _, resp := range op.Responses.Map() {
			if resp.Value != nil {
				for name := range resp.Value.Content {
					fn(name)
				}
			}
		}
	}
	var items []*openapi3.PathItem
	for _, item := range doc.Paths.Map() {
		items = append(items, item)
	}
	for _, item := range doc.Webhooks {
		items = append(items, item)
	}
	for len(items) > 0 {
		item := items[len(items)-1]
		items = items[:len(items)-1]
		if item == nil {
			continue
		}
		for _, op := range item.Operations() {
			visit(op)
			// A callback's operations are versioned as any other.
			for _, cb := range op.Callbacks {
				if cb != nil && cb.Value != nil {
					items = append(items, slices.Collect(maps.Values(cb.Value.Map()))...)
				}
			}
		}
	}
}
