package pdftext

import (
	"maps"
	"slices"
	"testing"
)

// cffSID returns the standard string id of a glyph name.
func cffSID(t *testing.T, name string) int {
	t.Helper()
	i := slices.Index(cffStandardStrings[:], name)
	if i < 0 {
		t.Fatalf("%s is not a standard string", name)
	}
	return i
}

func TestCFFCharset(t *testing.T) {
	for _, tc := range []struct {
		name    string
		data    []byte
		off, n  int
		want    []int
		wantErr bool
	}{
		{"ISOAdobe", nil, 0, 4, []int{0, 1, 2, 3}, false},
		{"ISOAdobe stops at 228", nil, 0, 230, nil, false},
		{"Expert", nil, 1, 4, nil, false},
		{"Expert subset", nil, 2, 4, nil, false},
		{"format 0", []byte{9, 9, 9, 0, 0, 5, 0, 7, 1, 0}, 3, 4, []int{0, 5, 7, 256}, false},
		{"format 1 ranges", []byte{9, 9, 9, 1, 0, 10, 1, 0, 40, 0}, 3, 4, []int{0, 10, 11, 40}, false},
		{"format 2 long range", []byte{9, 9, 9, 2, 0, 10, 0, 9}, 3, 4, []int{0, 10, 11, 12}, false},
		{"format 0 cut short", []byte{9, 9, 9, 0, 0, 5}, 3, 4, nil, true},
		{"format 1 missing count", []byte{9, 9, 9, 1, 0, 10}, 3, 4, nil, true},
		{"format 2 missing count", []byte{9, 9, 9, 2, 0, 10, 0}, 3, 4, nil, true},
		{"unknown format", []byte{9, 9, 9, 3, 0, 0}, 3, 4, nil, true},
		{"offset past the end", []byte{9}, 5, 4, nil, true}, // offsets 0, 1, 2 name the predefined charsets
		{"no glyphs", []byte{9, 9, 9, 0}, 3, 0, []int{}, false},
	} {
		got, err := cffCharset(cffReader{tc.data}, tc.off, tc.n)
		if (err != nil) != tc.wantErr {
			t.Errorf("%s: err %v, want error %v", tc.name, err, tc.wantErr)
			continue
		}
		if tc.name == "ISOAdobe stops at 228" {
			if got[228] != 228 || got[229] != 0 {
				t.Errorf("%s: sids[228], sids[229] = %d, %d; want 228, 0", tc.name, got[228], got[229])
			}
			continue
		}
		if !slices.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("%s: cffCharset = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestCFFStrings(t *testing.T) {
	strs := cffStrings{[]byte("ownglyph")}
	n := len(cffStandardStrings)
	for _, tc := range []struct {
		sid  int
		want string
	}{{0, ".notdef"}, {cffSID(t, "A"), "A"}, {n, "ownglyph"}, {n + 1, ""}} {
		if got := strs.name(tc.sid); got != tc.want {
			t.Errorf("name(%d) = %q, want %q", tc.sid, got, tc.want)
		}
	}
}

func TestCFFStandardCodes(t *testing.T) {
	a, b, fi := cffSID(t, "A"), cffSID(t, "B"), cffSID(t, "fi")
	got := cffStandardCodes([]int{0, a, b, fi}, nil)
	want := map[int]string{'A': "A", 'B': "B", 0xae: "fi"}
	if !maps.Equal(got, want) {
		t.Errorf("cffStandardCodes = %v, want %v", got, want)
	}
}

func TestCFFCustomCodes(t *testing.T) {
	n := len(cffStandardStrings)
	a, b := cffSID(t, "A"), cffSID(t, "B")
	sids := []int{0, a, b, n} // glyph 3 is the font's own "own"
	names := cffStrings{[]byte("own")}
	for _, tc := range []struct {
		name    string
		data    []byte
		want    map[int]string
		wantErr bool
	}{
		{"format 0", []byte{0, 3, 65, 66, 67}, map[int]string{65: "A", 66: "B", 67: "own"}, false},
		{"format 0, more codes than glyphs", []byte{0, 4, 65, 66, 67, 68}, map[int]string{65: "A", 66: "B", 67: "own"}, false},
		{"format 0 cut short", []byte{0, 3, 65}, nil, true},
		{"format 1 ranges", []byte{1, 2, 10, 1, 20, 0}, map[int]string{10: "A", 11: "B", 20: "own"}, false},
		{"format 1 range past 255", []byte{1, 1, 255, 3}, map[int]string{255: "A"}, false},
		{"format 1 cut short", []byte{1, 2, 10}, nil, true},
		{"supplements", []byte{0x80, 1, 65, 2, 97, 0, byte(a), 98, byte(n >> 8), byte(n)}, map[int]string{65: "A", 97: "A", 98: "own"}, false},
		{"supplement cut short", []byte{0x80, 1, 65, 1, 97, 0}, nil, true},
		{"unknown format", []byte{2, 0}, nil, true},
		{"nothing there", nil, nil, true},
	} {
		got, err := cffCustomCodes(cffReader{tc.data}, 0, sids, names)
		if (err != nil) != tc.wantErr || !maps.Equal(got, tc.want) {
			t.Errorf("%s: cffCustomCodes = %v, %v; want %v (error %v)", tc.name, got, err, tc.want, tc.wantErr)
		}
	}
}
