package corpus

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/internal/boltopen"
)

// Names of the bbolt buckets. Text and passages sit apart from the small
// document records so that listing papers never pages in whole papers.
var (
	bucketDocs     = []byte("docs")
	bucketText     = []byte("text")
	bucketPassages = []byte("passages")
	bucketMeta     = []byte("meta")
)

// SchemaVersion is bumped when the on-disk layout changes incompatibly.
const SchemaVersion = 1

// ErrNotFound is returned for a paper id that is not in the store.
var ErrNotFound = errors.New("not found")

// Document is what the store knows about one ingested document.
type Document struct {
	PaperID    string `json:"paper_id"`
	Title      string `json:"title"`
	Source     string `json:"source"`      // path, or "file.jsonl:LINE" for a dataset row
	Kind       string `json:"kind"`        // pdf, html, text, dataset
	SourceHash string `json:"source_hash"` // sha256 of the source bytes
	Extractor  string `json:"extractor"`   // extractor version; a change re-extracts
	Pages      int    `json:"pages"`
	Chars      int    `json:"chars"`
	Tokens     int    `json:"tokens"`
	Passages   int    `json:"passages"`
	MaxTokens  int    `json:"max_tokens"` // chunking setting the passages were made with
	// Drop is the --drop setting the text was stored with: the kinds of
	// text left out, comma-separated in kind.All order, or "none". Records
	// written before the setting existed have "", which means none.
	Drop string `json:"drop,omitempty"`
	// MinPassageTokens is the merging setting the passages were made with
	// (chunk.Options.MinTokens; 0 the default).
	MinPassageTokens int `json:"min_passage_tokens,omitempty"`
	// Spans mark the kinds of the stored text, as the extractor found them
	// (what --drop left). A passage merged from short ones of different
	// kinds records one kind, so chunking the text again starts from
	// these. Records written before them have none: their passages each
	// hold one kind and stand in.
	Spans      []kind.Span `json:"spans,omitempty"`
	Warning    string      `json:"warning,omitempty"`
	IngestedAt time.Time   `json:"ingested_at"`
}

// Passage is one stored passage. Start and End are byte offsets into the
// document's cleaned text, so evidence can be highlighted by offset.
type Passage struct {
	PaperID   string `json:"paper_id"`
	PassageID string `json:"passage_id"`
	Ordinal   int    `json:"ordinal"`
	Tokens    int    `json:"tokens"`
	Start     int    `json:"start"`
	End       int    `json:"end"`
	Section   string `json:"section"`
	// Kind is what the passage is (see package kind): body, table,
	// references... Passages stored before kinds existed have none, which
	// reads as body; use KindOf.
	Kind string `json:"kind,omitempty"`
	Text string `json:"text"`
}

// KindOf is the passage's kind, body when none was stored.
func (p Passage) KindOf() kind.Kind { return kind.Kind(p.Kind).Or() }

// PassageID names passage ordinal of a paper; stable while the paper's text
// and chunking settings are unchanged.
func PassageID(paperID string, ordinal int) string {
	return fmt.Sprintf("%s#%d", paperID, ordinal)
}

// Store is the durable corpus under a home folder: one bbolt file, so that
// every document is written in a single transaction and a killed ingest leaves
// either the whole document or none of it.
type Store struct {
	db   *bolt.DB
	Home string
	// commits counts the write transactions this Store committed: each
	// costs the disk two flushes (fdatasync of the pages, then of the
	// meta page), which is what PutMany saves.
	commits atomic.Int64
}

// FileName is the store's file inside the home folder.
const FileName = "corpus.db"

// LockTimeout is how long Open waits for a conflicting lock on the store
// before giving up (see boltopen.Timeout).
const LockTimeout = boltopen.Timeout

// Open opens (creating when needed) the store under home. readOnly opens
// take a shared lock, so several readers can run while no ingest does; a
// writer waits for every reader and a reader for the writer, each giving up
// with an error after LockTimeout.
func Open(home string, readOnly bool) (*Store, error) {
	path := filepath.Join(home, FileName)
	o := boltopen.Options{What: "corpus store", ReadOnly: readOnly,
		Holder: "an ingest, or an index update, writing home " + home}
	if !readOnly {
		// Readers hold the file too: an eval or search keeps its shared
		// lock for the whole run, and a writer must wait for all of them.
		o.Holder = "writing home " + home + ", or reading it for an eval or search"
		o.Else = "use another --home"
	}
	db, err := boltopen.Open(path, o)
	if errors.Is(err, boltopen.ErrNoFile) {
		return nil, fmt.Errorf("no corpus at %s: run 'paperlens ingest --home %s PATH...' first", home, home)
	}
	if err != nil {
		return nil, err
	}
	s := &Store{db: db, Home: home}
	if readOnly {
		// A writer killed between creating the file and its first commit
		// leaves no buckets, and every reader method would trip on them.
		err = db.View(func(tx *bolt.Tx) error {
			for _, b := range [][]byte{bucketDocs, bucketText, bucketPassages, bucketMeta} {
				if tx.Bucket(b) == nil {
					return fmt.Errorf("%s was never initialised: run 'paperlens ingest --home %s PATH...'", path, home)
				}
			}
			if v := tx.Bucket(bucketMeta).Get([]byte("schema")); v != nil && int(binary.BigEndian.Uint32(v)) != SchemaVersion {
				return fmt.Errorf("%s has store schema %d, this paperlens reads %d: use a new --home or re-ingest", path, binary.BigEndian.Uint32(v), SchemaVersion)
			}
			return nil
		})
		if err != nil {
			db.Close()
			return nil, err
		}
	} else {
		err = db.Update(func(tx *bolt.Tx) error {
			for _, b := range [][]byte{bucketDocs, bucketText, bucketPassages, bucketMeta} {
				if _, err := tx.CreateBucketIfNotExists(b); err != nil {
					return err
				}
			}
			meta := tx.Bucket(bucketMeta)
			if v := meta.Get([]byte("schema")); v != nil && int(binary.BigEndian.Uint32(v)) != SchemaVersion {
				return fmt.Errorf("store schema %d, this paperlens reads %d: use a new --home or re-ingest", binary.BigEndian.Uint32(v), SchemaVersion)
			}
			var v [4]byte
			binary.BigEndian.PutUint32(v[:], SchemaVersion)
			return meta.Put([]byte("schema"), v[:])
		})
		if err != nil {
			db.Close()
			return nil, fmt.Errorf("init %s: %w", path, err)
		}
	}
	return s, nil
}

// Close releases the store's file lock.
func (s *Store) Close() error { return s.db.Close() }

// Paper is one document with its cleaned text and its passages, as
// PutMany stores it.
type Paper struct {
	Doc      Document
	Text     string
	Passages []Passage
}

// Put stores a document with its text and passages in one transaction,
// replacing whatever was stored under the same paper id.
func (s *Store) Put(doc Document, text string, passages []Passage) error {
	return s.PutMany([]Paper{{Doc: doc, Text: text, Passages: passages}})
}

// PutMany stores papers as Put does, all in one transaction: a process
// killed during it leaves every one of them stored whole or none of them,
// as a killed Put leaves its paper. A transaction costs the disk two
// flushes whatever it holds, so storing papers that arrive in bulk (a
// dataset) in one costs two flushes where a Put each cost two per paper.
// A paper id given twice keeps the later paper. An error stores none.
func (s *Store) PutMany(papers []Paper) error {
	if len(papers) == 0 {
		return nil
	}
	docs := make([][]byte, len(papers))
	for i := range papers {
		doc := papers[i].Doc
		doc.Passages = len(papers[i].Passages)
		b, err := json.Marshal(doc)
		if err != nil {
			return fmt.Errorf("encode %s: %w", doc.PaperID, err)
		}
		docs[i] = b
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		for i, p := range papers {
			if err := putPaper(tx, p, docs[i]); err != nil {
				return fmt.Errorf("store %s: %w", p.Doc.PaperID, err)
			}
		}
		return bumpGeneration(tx)
	})
	if err == nil {
		s.commits.Add(1)
	}
	return err
}

// putPaper writes one paper (its record encoded as docJSON) in tx.
func putPaper(tx *bolt.Tx, p Paper, docJSON []byte) error {
	id := []byte(p.Doc.PaperID)
	if err := tx.Bucket(bucketDocs).Put(id, docJSON); err != nil {
		return err
	}
	if err := tx.Bucket(bucketText).Put(id, []byte(p.Text)); err != nil {
		return err
	}
	pb := tx.Bucket(bucketPassages)
	if pb.Bucket(id) != nil {
		if err := pb.DeleteBucket(id); err != nil {
			return err
		}
	}
	b, err := pb.CreateBucket(id)
	if err != nil {
		return err
	}
	for i, ps := range p.Passages {
		ps.PaperID, ps.Ordinal, ps.PassageID = p.Doc.PaperID, i, PassageID(p.Doc.PaperID, i)
		v, err := json.Marshal(ps)
		if err != nil {
			return err
		}
		if err := b.Put(ordinalKey(i), v); err != nil {
			return err
		}
	}
	return nil
}

// Commits is how many write transactions this Store has committed since
// it was opened (Put, PutMany, Delete; not the one Open makes): each is
// two flushes of the disk.
func (s *Store) Commits() int64 { return s.commits.Load() }

func ordinalKey(i int) []byte {
	var k [4]byte
	binary.BigEndian.PutUint32(k[:], uint32(i))
	return k[:]
}

// Doc returns the record of one paper, or ErrNotFound.
func (s *Store) Doc(paperID string) (Document, error) {
	var d Document
	err := s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketDocs).Get([]byte(paperID))
		if v == nil {
			return fmt.Errorf("paper %q: %w", paperID, ErrNotFound)
		}
		return json.Unmarshal(v, &d)
	})
	return d, err
}

// Docs lists every document, ordered by paper id.
func (s *Store) Docs() ([]Document, error) {
	var out []Document
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketDocs).ForEach(func(k, v []byte) error {
			var d Document
			if err := json.Unmarshal(v, &d); err != nil {
				return fmt.Errorf("decode %s: %w", k, err)
			}
			out = append(out, d)
			return nil
		})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].PaperID < out[j].PaperID })
	return out, err
}

// Text returns a paper's cleaned text.
func (s *Store) Text(paperID string) (string, error) {
	var t string
	err := s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketText).Get([]byte(paperID))
		if v == nil {
			return fmt.Errorf("paper %q: %w", paperID, ErrNotFound)
		}
		t = string(v)
		return nil
	})
	return t, err
}

// Passages returns a paper's passages in order.
func (s *Store) Passages(paperID string) ([]Passage, error) {
	var out []Passage
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketPassages).Bucket([]byte(paperID))
		if b == nil {
			return fmt.Errorf("paper %q: %w", paperID, ErrNotFound)
		}
		return b.ForEach(func(_, v []byte) error {
			var p Passage
			if err := json.Unmarshal(v, &p); err != nil {
				return fmt.Errorf("decode passage of %s: %w", paperID, err)
			}
			out = append(out, p)
			return nil
		})
	})
	return out, err
}

// Passage returns one passage by its id ("PAPER#ORDINAL", PassageID's
// form) with one key lookup: a search hit needs one text, and decoding
// every passage of its paper to find it cost most of a dense search.
// An id not of that form, or naming no stored passage, is ErrNotFound.
func (s *Store) Passage(passageID string) (Passage, error) {
	var p Passage
	cut := strings.LastIndexByte(passageID, '#')
	if cut <= 0 {
		return p, fmt.Errorf("passage %q: %w", passageID, ErrNotFound)
	}
	ord, err := strconv.Atoi(passageID[cut+1:])
	if err != nil || ord < 0 || ord > math.MaxUint32 {
		return p, fmt.Errorf("passage %q: %w", passageID, ErrNotFound)
	}
	paperID := passageID[:cut]
	err = s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketPassages).Bucket([]byte(paperID))
		if b == nil {
			return fmt.Errorf("passage %q: %w", passageID, ErrNotFound)
		}
		v := b.Get(ordinalKey(ord))
		if v == nil {
			return fmt.Errorf("passage %q: %w", passageID, ErrNotFound)
		}
		if err := json.Unmarshal(v, &p); err != nil {
			return fmt.Errorf("decode passage %s: %w", passageID, err)
		}
		return nil
	})
	return p, err
}

// keyGeneration counts the store's changes (meta bucket).
var keyGeneration = []byte("generation")

// bumpGeneration counts a change, in the transaction that makes it.
func bumpGeneration(tx *bolt.Tx) error {
	meta := tx.Bucket(bucketMeta)
	var g [8]byte
	binary.BigEndian.PutUint64(g[:], generationOf(meta)+1)
	return meta.Put(keyGeneration, g[:])
}

func generationOf(meta *bolt.Bucket) uint64 {
	if v := meta.Get(keyGeneration); len(v) == 8 {
		return binary.BigEndian.Uint64(v)
	}
	return 0
}

// Generation is a number that changes with every write to the store (a
// paper stored, replaced or deleted), read in one key lookup: an index
// that records the generation it was built at knows it is up to date
// without reading every paper's record.
func (s *Store) Generation() (uint64, error) {
	var g uint64
	err := s.db.View(func(tx *bolt.Tx) error {
		g = generationOf(tx.Bucket(bucketMeta))
		return nil
	})
	return g, err
}

// Delete removes a paper and everything stored with it.
func (s *Store) Delete(paperID string) error {
	err := s.db.Update(func(tx *bolt.Tx) error {
		id := []byte(paperID)
		if tx.Bucket(bucketDocs).Get(id) == nil {
			return fmt.Errorf("paper %q: %w", paperID, ErrNotFound)
		}
		_ = tx.Bucket(bucketText).Delete(id)
		if tx.Bucket(bucketPassages).Bucket(id) != nil {
			if err := tx.Bucket(bucketPassages).DeleteBucket(id); err != nil {
				return err
			}
		}
		if err := tx.Bucket(bucketDocs).Delete(id); err != nil {
			return err
		}
		return bumpGeneration(tx)
	})
	if err == nil {
		s.commits.Add(1)
	}
	return err
}

// Check verifies the invariants every reader relies on: each document has
// its text, its passage count, and passages that tile the text in order.
// It returns one error per broken document.
func (s *Store) Check() []error {
	docs, err := s.Docs()
	if err != nil {
		return []error{err}
	}
	var errs []error
	for _, d := range docs {
		text, err := s.Text(d.PaperID)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		ps, err := s.Passages(d.PaperID)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if len(ps) != d.Passages {
			errs = append(errs, fmt.Errorf("paper %q: record says %d passages, store holds %d", d.PaperID, d.Passages, len(ps)))
			continue
		}
		at, broken := 0, false
		for _, p := range ps {
			if p.Start != at || p.End < p.Start || p.End > len(text) || text[p.Start:p.End] != p.Text {
				errs = append(errs, fmt.Errorf("paper %q: passage %d does not tile the text at offset %d", d.PaperID, p.Ordinal, at))
				broken = true
				break
			}
			at = p.End
		}
		if !broken && at != len(text) {
			errs = append(errs, fmt.Errorf("paper %q: passages cover %d of %d bytes", d.PaperID, at, len(text)))
		}
	}
	return errs
}
