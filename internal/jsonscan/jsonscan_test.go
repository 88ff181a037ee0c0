package jsonscan

import "testing"

func TestOutside(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		`{"a":[1,"x]"],"b\"}":{}}`: `{":[1,"],":{}}`,
		`"\\"1`:                    `"1`,
		`[true, null]`:             `[true, null]`,
	} {
		var got []byte
		Outside([]byte(text), func(b byte) { got = append(got, b) })
		if string(got) != want {
			t.Errorf("Outside(%s) = %s, want %s", text, got, want)
		}
	}
}
