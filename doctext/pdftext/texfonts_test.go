package pdftext

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/ledongthuc/pdf"

	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// layoutText is the text of a PDF's lines before cleaning: the decoded
// glyphs as the layout joined them, without the NFKC normalisation that
// would fold ℝ into R and ϕ into φ.
func layoutText(t *testing.T, path string) string {
	t.Helper()
	rd := openFixture(t, path)
	pages, err := pageList(rd)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	fonts := &docFonts{byRef: map[string]*font{}}
	var sb strings.Builder
	for i, p := range pages {
		pl, err := extractPage(p, fonts)
		if err != nil {
			t.Fatalf("%s page %d: %v", path, i+1, err)
		}
		for _, b := range pl.blocks {
			for _, l := range b.lines {
				sb.WriteString(l.text)
				sb.WriteByte('\n')
			}
		}
	}
	return sb.String()
}

func openFixture(t *testing.T, path string) *pdf.Reader {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rd
}

func texFixture(name string) string {
	return filepath.Join("testdata", "texfonts", name)
}

// fixtureFonts returns the font dictionaries of a fixture's pages.
func fixtureFonts(t *testing.T, path string) []pdf.Value {
	t.Helper()
	pages, err := pageList(openFixture(t, path))
	if err != nil {
		t.Fatal(err)
	}
	var fonts []pdf.Value
	for _, p := range pages {
		fd := p.Key("Resources").Key("Font")
		for _, k := range fd.Keys() {
			fonts = append(fonts, fd.Key(k))
		}
	}
	if len(fonts) == 0 {
		t.Fatalf("%s: no fonts", path)
	}
	return fonts
}

// mathsSymbols counts each symbol of maths.tex as it is typeset there.
var mathsSymbols = []struct {
	sym string
	n   int
}{
	// OT1 text: ligatures kept as presentation forms until NFKC.
	{"ﬃ", 1}, {"ﬄ", 1}, {"ﬀ", 2}, {"ﬁ", 2}, {"ﬂ", 1}, {"“", 1}, {"”", 1},
	{"–", 1}, {"—", 1}, {"ß", 1}, {"æ", 1}, {"œ", 1}, {"ø", 1}, {"Æ", 1}, {"Œ", 1}, {"Ø", 1},
	// OML: \phi is ϕ and \varphi φ in cmmi (pdfTeX's glyphtounicode.tex).
	{"α", 1}, {"β", 1}, {"γ", 3}, {"δ", 1}, {"ϵ", 1}, {"ε", 1}, {"ζ", 1}, {"η", 1},
	{"θ", 1}, {"ϑ", 1}, {"ι", 1}, {"κ", 1}, {"λ", 1}, {"µ", 1}, {"ν", 1}, {"ξ", 1},
	{"π", 1}, {"ϖ", 1}, {"ρ", 1}, {"ϱ", 1}, {"σ", 1}, {"ς", 1}, {"τ", 1}, {"υ", 1},
	{"ϕ", 1}, {"φ", 1}, {"χ", 1}, {"ψ", 1}, {"ω", 1},
	{"⋆", 1}, {"◁", 1}, {"▷", 1}, {"♭", 1}, {"♮", 1}, {"♯", 1}, {"∂", 1}, {"ℓ", 1},
	{"℘", 1}, {"ı", 1}, {"ȷ", 1}, {"/", 1},
	// Greek capitals: cmmi's italic ones and OT1's upright ones.
	{"Γ", 3}, {"Δ", 2}, {"Θ", 1}, {"Λ", 1}, {"Ξ", 1}, {"Π", 1}, {"Σ", 1}, {"Υ", 1},
	{"Φ", 1}, {"Ψ", 1}, {"Ω", 2},
	// OMS
	{"−", 1}, {"·", 1}, {"×", 1}, {"∗", 1}, {"÷", 1}, {"⋄", 1}, {"±", 1}, {"∓", 1},
	{"⊕", 1}, {"⊖", 1}, {"⊗", 1}, {"⊘", 1}, {"⊙", 1}, {"◯", 1}, {"∘", 1}, {"•", 1},
	{"≍", 1}, {"≡", 1}, {"⊆", 1}, {"⊇", 1}, {"≤", 2}, {"≥", 1}, {"⪯", 1}, {"⪰", 1},
	{"∼", 1}, {"≈", 1}, {"⊂", 1}, {"⊃", 1}, {"≪", 1}, {"≫", 1}, {"≺", 1}, {"≻", 1},
	{"←", 1}, {"→", 2}, {"↑", 1}, {"↓", 1}, {"↔", 1}, {"↗", 1}, {"↘", 1}, {"≃", 1},
	{"⇐", 1}, {"⇒", 1}, {"⇑", 1}, {"⇓", 1}, {"⇔", 1}, {"↖", 1}, {"↙", 1}, {"∝", 1},
	{"′", 1}, {"∞", 1}, {"∈", 3}, {"∋", 1}, {"△", 1}, {"▽", 1}, {"∀", 1}, {"∃", 1},
	{"¬", 1}, {"∅", 1}, {"ℜ", 1}, {"ℑ", 1}, {"⊤", 1}, {"⊥", 1}, {"ℵ", 1}, {"𝒜", 1},
	{"ℒ", 1}, {"∪", 1}, {"∩", 1}, {"⊎", 1}, {"∧", 1}, {"∨", 1}, {"⊢", 1}, {"⊣", 1},
	{"⌊", 1}, {"⌋", 1}, {"⌈", 1}, {"⌉", 1}, {"{", 1}, {"}", 1}, {"⟨", 1}, {"⟩", 1},
	{"|", 2}, {"‖", 2}, {"↕", 1}, {"⇕", 1}, {"\\", 1}, {"≀", 1}, {"√", 3}, {"⨿", 1},
	{"∇", 1}, {"∫", 3}, {"⊔", 1}, {"⊓", 1}, {"⊑", 1}, {"⊒", 1}, {"♣", 1}, {"♢", 1},
	{"♡", 1}, {"♠", 1}, {"§", 1}, {"†", 1}, {"‡", 1}, {"¶", 1},
	{"=\u0338", 1}, // \neq, the slash moved after "=" for NFKC to make ≠
	{"∈\u0338", 1}, // \notin: a "/" struck over "∈"
	// OMX: big operators as n-ary characters; sized delimiters draw nothing.
	{"∑", 2}, {"∏", 1}, {"∐", 1}, {"∮", 1}, {"⋃", 1}, {"⋂", 1}, {"⨄", 1}, {"⨆", 1},
	{"⋁", 1}, {"⋀", 1}, {"⨀", 1}, {"⨁", 1}, {"⨂", 1}, {"ˆ", 1},
	// MSBM and MSAM.
	{"ℝ", 1}, {"ℕ", 1}, {"ℤ", 1}, {"ℚ", 1}, {"ℂ", 1}, {"ϰ", 1}, {"𝕜", 1}, {"≰", 1},
	{"⊊", 1}, {"≁", 1}, {"□", 1}, {"■", 1}, {"⩽", 1}, {"⩾", 1}, {"∴", 1}, {"∵", 1},
	{"✓", 1}, {"◊", 1}, {"⇌", 1}, {"↠", 1}, {"≲", 1}, {"≳", 1}, {"⊩", 1}, {"⊨", 1},
}

// TestTeXFontSymbols: maths.tex set by four producers, none writing a
// ToUnicode map, must give every symbol as often as the source has it.
func TestTeXFontSymbols(t *testing.T) {
	for _, fx := range []struct {
		file, kind string
	}{
		{"maths.pdf", "pdfTeX: Type 1, built-in encodings"},
		{"maths-gs.pdf", "ghostscript: Type1C with /Differences or WinAnsi"},
		{"maths-dvipdfmx.pdf", "dvipdfmx: Type1C, built-in encodings only"},
		{"maths-noembed.pdf", "no font programs: encodings from font names"},
	} {
		t.Run(fx.file, func(t *testing.T) {
			path := texFixture(fx.file)
			for _, f := range fixtureFonts(t, path) {
				if !f.Key("ToUnicode").IsNull() {
					t.Fatalf("%s (%s) has a ToUnicode map: the fixture must not", f.Key("BaseFont").Name(), fx.kind)
				}
			}
			text := layoutText(t, path)
			for _, s := range mathsSymbols {
				if got := strings.Count(text, s.sym); got != s.n {
					t.Errorf("%q: %d, want %d (%s)", s.sym, got, s.n, fx.kind)
				}
			}
			if t.Failed() {
				t.Logf("text:\n%s", text)
			}
			d, err := ExtractFile(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"The office staff find five fluffy waffles", "naïve déjà vu",
				"x ≠ y", "x ∉ A", "γ ∈ Γ", "|x|, ‖y‖", "f : X → Y"} {
				if !strings.Contains(d.Text, want) {
					t.Errorf("document text lacks %q", want)
				}
			}
		})
	}
}

// TestFixtureFontKinds: each fixture exercises the path it claims to.
func TestFixtureFontKinds(t *testing.T) {
	for _, tc := range []struct {
		file string
		ok   func(f pdf.Value) bool
		what string
	}{
		{"maths.pdf", func(f pdf.Value) bool {
			return f.Key("FontDescriptor").Key("FontFile").Kind() == pdf.Stream && f.Key("Encoding").IsNull()
		}, "an embedded Type 1 program and no /Encoding"},
		{"maths-dvipdfmx.pdf", func(f pdf.Value) bool {
			ff := f.Key("FontDescriptor").Key("FontFile3")
			return ff.Key("Subtype").Name() == "Type1C" && f.Key("Encoding").IsNull()
		}, "an embedded Type1C program and no /Encoding"},
		{"maths-noembed.pdf", func(f pdf.Value) bool {
			fd := f.Key("FontDescriptor")
			return fd.Key("FontFile").IsNull() && fd.Key("FontFile3").IsNull() && f.Key("Encoding").IsNull()
		}, "no font program and no /Encoding"},
		{"t1-sf.pdf", func(f pdf.Value) bool {
			return strings.Contains(f.Key("BaseFont").Name(), "+SF") && f.Key("FontDescriptor").Key("FontFile").IsNull() &&
				f.Key("Encoding").IsNull()
		}, "a cm-super name, no font program and no /Encoding"},
	} {
		for _, f := range fixtureFonts(t, texFixture(tc.file)) {
			if !tc.ok(f) {
				t.Errorf("%s: font %s lacks %s", tc.file, f.Key("BaseFont").Name(), tc.what)
			}
		}
	}
}

// TestT1FontByName: T1 (Cork) fonts known only by cm-super's names decode
// accented letters, which T1 has as glyphs of their own.
func TestT1FontByName(t *testing.T) {
	d, err := ExtractFile(context.Background(), texFixture("t1-sf.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	want := "Café naïve Gödel ça Škoda Łódź ß «quoted» „low“ – and — fi fl ffi. Straße und Flüsse."
	if got := normSpace(d.Text); got != want {
		t.Errorf("text\n%q\nwant\n%q", got, want)
	}
}

// TestCFFEncodingMatchesTeX: the encodings dvipdfmx wrote into its CFF
// conversions of TeX's fonts are the fonts' own, as generated from the
// .pfb files: an independent check of the CFF reader and of the tables.
func TestCFFEncodingMatchesTeX(t *testing.T) {
	for _, f := range fixtureFonts(t, texFixture("maths-dvipdfmx.pdf")) {
		base := f.Key("BaseFont").Name()
		base = base[strings.IndexByte(base, '+')+1:]
		tf := lookupTeXFont(base)
		if tf.enc == nil {
			t.Errorf("%s: not known as a TeX font", base)
			continue
		}
		rc := f.Key("FontDescriptor").Key("FontFile3").Reader()
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		m, err := cffEncoding(data)
		if err != nil || len(m) == 0 {
			t.Errorf("%s: cffEncoding: %d codes, %v", base, len(m), err)
			continue
		}
		for code, name := range m {
			if tf.enc[code] != name {
				t.Errorf("%s code %#x: CFF says %q, the TeX encoding %q", base, code, name, tf.enc[code])
			}
		}
		// Damaged programs: never a panic, whatever comes back.
		for n := 0; n < len(data); n += 1 + n/16 {
			_, _ = cffEncoding(data[:n])
		}
		for i := 0; i < len(data); i += 7 {
			bad := append([]byte(nil), data...)
			bad[i] ^= 0xff
			_, _ = cffEncoding(bad)
		}
	}
}

// TestTeXEncodingNamesResolve: every glyph of every TeX encoding has a text
// (possibly deliberately empty), so no code falls back to its byte value.
func TestTeXEncodingNamesResolve(t *testing.T) {
	family := map[int]string{}
	for i, n := range texFontNames {
		if _, ok := family[int(texFontEncoding[i])]; !ok {
			family[int(texFontEncoding[i])] = lookupTeXFont(n).family
		}
	}
	for i, vec := range texEncodingVectors {
		for code, name := range vec {
			if name == "" {
				continue
			}
			if _, ok := fontGlyphText(family[i], name); !ok {
				t.Errorf("%s code %#x: glyph %q has no text", texEncodingSource[i], code, name)
			}
		}
	}
}

func TestLookupTeXFont(t *testing.T) {
	for _, tc := range []struct {
		base, family, source string
		letters              letterStyle
	}{
		{"CMMI10", "cmmi", "amsfonts/cm/cmmi10.pfb", plainLetters},
		{"CMMI12", "cmmi", "amsfonts/cm/cmmi10.pfb", plainLetters},
		{"CMSY7", "cmsy", "amsfonts/cm/cmbsy10.pfb", scriptLetters}, // cmsy and cmbsy share one vector
		{"CMR10", "cmr", "amsfonts/cm/cmb10.pfb", plainLetters},
		{"CMR11", "cmr", "amsfonts/cm/cmb10.pfb", plainLetters}, // no such size: the family's
		{"CMEX10", "cmex", "amsfonts/cm/cmex10.pfb", plainLetters},
		{"MSBM10", "msbm", "amsfonts/symbols/msbm10.pfb", doubleStruckLetters},
		{"MSAM7", "msam", "amsfonts/symbols/msam10.pfb", plainLetters},
		{"SFRM1000", "sf", "enc/dvips/base/ec.enc", plainLetters},
		{"ECTT1200", "ec", "enc/dvips/base/ec.enc", plainLetters},
		{"LMMathItalic10-Regular", "lmmi", "enc/dvips/lm/lm-mathit.enc", plainLetters},
		{"EUFM10", "eufm", "amsfonts/euler/eufm10.pfb", frakturLetters},
	} {
		tf := lookupTeXFont(tc.base)
		if tf.enc == nil {
			t.Errorf("%s: unknown", tc.base)
			continue
		}
		src := ""
		for i := range texEncodingVectors {
			if &texEncodingVectors[i] == tf.enc {
				src = texEncodingSource[i]
			}
		}
		if tf.family != tc.family || src != tc.source || tf.letters != tc.letters {
			t.Errorf("%s: family %q, encoding %s, letters %d; want %q, %s, %d", tc.base, tf.family, src, tf.letters, tc.family, tc.source, tc.letters)
		}
	}
	for _, base := range []string{"Times-Roman", "NimbusRomNo9L-Regu", "SFPro-Regular", "Helvetica", "DejaVuSans", ""} {
		if tf := lookupTeXFont(base); tf.enc != nil {
			t.Errorf("%q taken for a TeX font", base)
		}
	}
}

func TestLetterStyles(t *testing.T) {
	for _, tc := range []struct {
		ls       letterStyle
		in, want string
	}{
		{doubleStruckLetters, "RNZQCA", "ℝℕℤℚℂ𝔸"},
		{scriptLetters, "ABLz", "𝒜ℬℒz"},
		{frakturLetters, "gRA", "𝔤ℜ𝔄"},
		{boldFrakturLetters, "a", "𝖆"},
		{plainLetters, "R", "R"},
		{doubleStruckLetters, "1+", "1+"},
	} {
		if got := tc.ls.apply(tc.in); got != tc.want {
			t.Errorf("%d.apply(%q) = %q, want %q", tc.ls, tc.in, got, tc.want)
		}
	}
}

func TestMoveNegations(t *testing.T) {
	for in, want := range map[string]string{
		"\u0338=":        "=\u0338",
		"x\u0338\u2208y": "x\u2208\u0338y",
		"\u0338":         "\u0338",
		"plain":          "plain",
	} {
		if got := moveNegations(in); got != want {
			t.Errorf("moveNegations(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestScriptEndsWord: a superscript number touching the next word, as
// "E$^5$achieves" comes out of TeX, or a subscript one before a word, is
// followed by a space; formulas and names with digits on the baseline are
// not split.
func TestScriptEndsWord(t *testing.T) {
	// Courier: 0.6 em per glyph, so each run starts where the last ends.
	run := func(x, y, size float64, s string) (synthText, float64) {
		return synthText{x: x, y: y, size: size, s: s}, x + 0.6*size*float64(len(s))
	}
	line := func(y float64, parts ...[3]any) []synthText {
		var out []synthText
		x := 72.0
		for _, p := range parts {
			var st synthText
			st, x = run(x, y+p[1].(float64), p[0].(float64), p[2].(string))
			out = append(out, st)
		}
		return out
	}
	var pg []synthText
	pg = append(pg, line(700, [3]any{12.0, 0.0, "E"}, [3]any{8.0, 4.5, "5"}, [3]any{12.0, 0.0, "achieves"})...)
	pg = append(pg, line(670, [3]any{12.0, 0.0, "H"}, [3]any{8.0, -2.5, "2"}, [3]any{12.0, 0.0, "O"})...)
	pg = append(pg, line(640, [3]any{12.0, 0.0, "x"}, [3]any{8.0, 4.5, "2"}, [3]any{12.0, 0.0, "y"})...)
	pg = append(pg, line(610, [3]any{12.0, 0.0, "CO"}, [3]any{8.0, -2.5, "2"}, [3]any{12.0, 0.0, "emissions"})...)
	pg = append(pg, line(580, [3]any{12.0, 0.0, "F1 L2 GPT-4o"})...)
	d := synthDoc(t, "Script Spacing Test", [][]synthText{pg})
	got := normSpace(d.Text)
	for _, want := range []string{"E5 achieves", "H2O", "x2y", "CO2 emissions", "F1 L2 GPT-4o"} {
		if !strings.Contains(got, want) {
			t.Errorf("text lacks %q: %q", want, got)
		}
	}
}

// TestQuartzToUnicode: Mac OS X Quartz writes ToUnicode maps for TeX fonts
// that turn θ into ✓, π into ⇡, → into "!" and ‖ into "k" (pdftotext
// shows them). The glyph names must win: every such character pdftotext
// gives is the symbol in our text, and none is left.
func TestQuartzToUnicode(t *testing.T) {
	needPdftotext(t)
	for _, tc := range []struct {
		file       string
		bogus, sym string
	}{
		{"trpo.pdf", "✓", "θ"}, {"trpo.pdf", "⇡", "π"}, {"trpo.pdf", "!", "→"}, {"trpo.pdf", "k", "‖"},
		{"diffusion-nonequilibrium.pdf", "⇡", "π"},
	} {
		path := testcorpus.Path(t, "corpus", "pdf", tc.file)
		ours, theirs := extracted(t, path).Text, pdftotext(t, path)
		lost := strings.Count(theirs, tc.bogus) - strings.Count(ours, tc.bogus)
		if lost <= 0 {
			t.Errorf("%s: pdftotext has %d %q, we have %d: the case is gone from the corpus", tc.file, strings.Count(theirs, tc.bogus), tc.bogus, strings.Count(ours, tc.bogus))
			continue
		}
		// θ once sits in a ligature-like pair pdftotext splits: allow 1%.
		if got := strings.Count(ours, tc.sym) - strings.Count(theirs, tc.sym); got < lost*99/100 {
			t.Errorf("%s: %d %q of pdftotext's are gone, but only %d more %q", tc.file, lost, tc.bogus, got, tc.sym)
		}
	}
	for _, f := range corpusPDFs(t) {
		if n := strings.Count(extracted(t, f).Text, "⇡") + strings.Count(extracted(t, f).Text, "⌘"); n > 0 {
			t.Errorf("%s: %d Quartz keyboard symbols left", filepath.Base(f), n)
		}
	}
}

// TestTeXTablesAgainstSources compares the generated tables with the TeX
// Live files they came from and with independent ones: the teTeX encoding
// files, whose headers list the fonts using each, and the two glyph lists
// that glyphtounicode.tex was built from. Skipped without TeX Live.
func TestTeXTablesAgainstSources(t *testing.T) {
	const texmf = "/usr/share/texlive/texmf-dist"
	if _, err := os.Stat(filepath.Join(texmf, "fonts/enc/dvips/tetex")); err != nil {
		t.Skip("TeX Live's encoding files are not installed")
	}
	checkEncodingsAgainstTeTeX(t, texmf)
	checkEncodingsAgainstBase(t, texmf)

	// Every name of the Adobe Glyph List and of TeX's additions maps to one
	// of the characters those lists give (a name may have several, and be
	// in both), unless deliberately overridden here.
	alts := readGlyphLists(t, texmf)
	if len(alts) < 4000 {
		t.Fatalf("only %d glyph names read", len(alts))
	}
	checkGlyphNamesAgainstLists(t, alts)
}

// checkEncodingsAgainstTeTeX checks the generated encoding of every font
// a teTeX encoding file's header lists against that file, and that at
// least 40 fonts were checked.
func checkEncodingsAgainstTeTeX(t *testing.T, texmf string) {
	t.Helper()
	fontRE := regexp.MustCompile(`cm[a-z]+?\d+`)
	encs, _ := filepath.Glob(filepath.Join(texmf, "fonts/enc/dvips/tetex/*.enc"))
	checked := 0
	for _, p := range encs {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		head, _, _ := strings.Cut(string(data), "[")
		vec := readEncVector(t, data)
		for _, font := range fontRE.FindAllString(head, -1) {
			tf := lookupTeXFont(font)
			if tf.enc == nil {
				continue // cmr17cmr6: a typo in the header
			}
			checked++
			for code := range vec {
				// The .pfb files also encode a space, a soft hyphen and a
				// no-break space above 0xA0, where the .enc files have none.
				if vec[code] != "" && tf.enc[code] != vec[code] {
					t.Errorf("%s: %s code %#x is %q, generated %q", filepath.Base(p), font, code, vec[code], tf.enc[code])
				}
			}
		}
	}
	if checked < 40 {
		t.Errorf("only %d fonts checked against teTeX's encodings", checked)
	}
}

// checkEncodingsAgainstBase checks the generated encodings of an EC, a
// maths italic, a symbol and an extension font against TeX Live's base
// encoding files.
func checkEncodingsAgainstBase(t *testing.T, texmf string) {
	t.Helper()
	for _, tc := range []struct{ file, font string }{
		{"base/ec.enc", "SFRM1000"}, {"base/texmital.enc", "CMMI10"}, {"base/texmsym.enc", "CMSY10"}, {"base/texmext.enc", "CMEX10"},
	} {
		data, err := os.ReadFile(filepath.Join(texmf, "fonts/enc/dvips", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		vec, gen := readEncVector(t, data), lookupTeXFont(tc.font).enc
		for code := range vec {
			if vec[code] != "" && gen[code] != vec[code] {
				t.Errorf("%s code %#x is %q, %s's generated encoding %q", tc.file, code, vec[code], tc.font, gen[code])
			}
		}
	}
}

// readGlyphLists reads the Adobe Glyph List and TeX's additions: each
// name's characters (several when a list gives several, or both do),
// private use dropped.
func readGlyphLists(t *testing.T, texmf string) map[string][]string {
	t.Helper()
	alts := map[string][]string{}
	for _, list := range []string{"glyphlist.txt", "texglyphlist.txt"} {
		f, err := os.Open(filepath.Join(texmf, "fonts/map/glyphlist", list))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			name, vals, ok := strings.Cut(sc.Text(), ";")
			if !ok || strings.HasPrefix(name, "#") {
				continue
			}
			for _, alt := range strings.Split(vals, ",") {
				alts[name] = append(alts[name], dropPrivateUse(glyphListChars(alt)))
			}
		}
		f.Close()
	}
	return alts
}

// glyphListChars is the text of a glyph list's hexadecimal code points,
// TeX's invalid ones (surrogates) left out.
func glyphListChars(alt string) string {
	var sb strings.Builder
	for _, h := range strings.Fields(alt) {
		v, _ := strconv.ParseUint(h, 16, 32)
		if v >= 0xd800 && v < 0xe000 {
			continue // TeX's invalid code points for its private glyphs
		}
		sb.WriteRune(rune(v))
	}
	return sb.String()
}

// checkGlyphNamesAgainstLists checks every glyph name of the lists maps
// to one of the characters they give, unless deliberately overridden
// here (by hand, or as a cmex glyph).
func checkGlyphNamesAgainstLists(t *testing.T, alts map[string][]string) {
	t.Helper()
	for name, want := range alts {
		got, known := glyphText(name)
		if !slices.ContainsFunc(want, func(s string) bool { return s != "" }) {
			// Private-use or invalid (a lone surrogate) in both lists:
			// glyphtounicode.tex's own choice (AEsmall → æ) stands.
			continue
		}
		if !known {
			t.Errorf("%s unknown", name)
			continue
		}
		if _, hand := glyphNames()[name]; hand {
			continue
		}
		if _, cmex := cmexText(name); cmex {
			continue
		}
		if !slices.Contains(want, got) {
			t.Errorf("%s -> %q, the lists say %q", name, got, want)
		}
	}
}

// dropGreek removes Greek letters from words, and words left empty. Greek
// letters in papers are maths, where pdftotext is no reference: it reads
// the TeX fonts Mac OS X's Quartz wrote (trpo.pdf) through their broken
// ToUnicode maps, θ as ✓ and π as ⇡, so every variable we get right
// would count against us.
func dropGreek(ws []string) []string {
	out := ws[:0:0]
	for _, w := range ws {
		w = strings.Map(func(r rune) rune {
			if unicode.Is(unicode.Greek, r) {
				return -1
			}
			return r
		}, w)
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// readEncVector reads a dvips .enc file's 256 glyph names.
func readEncVector(t *testing.T, data []byte) [256]string {
	t.Helper()
	var vec [256]string
	_, body, _ := strings.Cut(string(data), "[")
	body, _, _ = strings.Cut(body, "]")
	i := 0
	for _, line := range strings.Split(body, "\n") {
		line, _, _ = strings.Cut(line, "%")
		for _, f := range strings.Fields(line) {
			if !strings.HasPrefix(f, "/") || i >= 256 {
				continue
			}
			if f != "/.notdef" {
				vec[i] = f[1:]
			}
			i++
		}
	}
	if i != 256 {
		t.Fatalf("encoding file with %d names", i)
	}
	return vec
}

func TestFoldCompat(t *testing.T) {
	for in, want := range map[string]string{
		"ﬁnd ﬂuﬀy":         "find fluffy",
		"x ∈ ℝ, ℓ₂, ϕ ≠ ϵ": "x ∈ ℝ, ℓ2, ϕ ≠ ϵ",
		"𝒜 ∪ 𝕜, ℵ0":        "𝒜 ∪ 𝕜, ℵ0",
		"=\u0338 µm ™ ①":   "≠ μm TM 1",
		"plain text":       "plain text",
	} {
		if got := foldCompat(in); got != want {
			t.Errorf("foldCompat(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzCFFEncoding: no font program, however damaged, makes the CFF reader
// panic or run away; seeded with dvipdfmx's conversions of TeX's fonts.
func FuzzCFFEncoding(f *testing.F) {
	rd, err := os.ReadFile(texFixture("maths-dvipdfmx.pdf"))
	if err != nil {
		f.Fatal(err)
	}
	r, err := open(bytes.NewReader(rd), int64(len(rd)))
	if err != nil {
		f.Fatal(err)
	}
	pages, err := pageList(r)
	if err != nil {
		f.Fatal(err)
	}
	fd := pages[0].Key("Resources").Key("Font")
	for _, k := range fd.Keys() {
		rc := fd.Key(k).Key("FontDescriptor").Key("FontFile3").Reader()
		data, _ := io.ReadAll(rc)
		rc.Close()
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := cffEncoding(data)
		if err == nil && len(m) > 256 {
			t.Errorf("%d codes in a one-byte encoding", len(m))
		}
	})
}
