package web

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/google/renameio/v2"
)

// Cache stores every search response and fetched page under a directory so
// that a run can be replayed offline:
//
//	dir/searches/<sha256(query)>.json   one Entry per query (JSON)
//	dir/blobs/<hh>/<sha256>             raw search responses and page bodies
//
// Files are written to a temporary name, fsynced and renamed
// (github.com/google/renameio), so a reader never sees a partial file. A
// Cache is safe for concurrent use; two processes sharing a directory do
// not corrupt it (the last writer of an entry wins).
type Cache struct {
	dir string
	mu  sync.Mutex
}

// Entry is the cached record of one search.
type Entry struct {
	Query          string    `json:"query"`
	Provider       string    `json:"provider"`
	Time           time.Time `json:"time"`
	ResponseSHA256 string    `json:"response_sha256,omitempty"` // raw provider response
	MoreResponses  []string  `json:"more_responses,omitempty"`  // raw responses of further result pages, in order
	Results        []Result  `json:"results"`                   // every candidate, ranked in order
	Pages          []Page    `json:"pages"`                     // the candidates fetched (or passed over), in rank order
	Docs           []Doc     `json:"docs"`                      // what the search returned`
}

// OpenCache opens (creating when needed) a cache directory.
func OpenCache(dir string) (*Cache, error) {
	for _, sub := range []string{"searches", "blobs"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return nil, fmt.Errorf("web cache: %w", err)
		}
	}
	return &Cache{dir: dir}, nil
}

func hashHex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func (c *Cache) entryPath(query string) string {
	return filepath.Join(c.dir, "searches", hashHex([]byte(query))+".json")
}

func (c *Cache) blobPath(sum string) string {
	return filepath.Join(c.dir, "blobs", sum[:2], sum)
}

// writeFile writes data to path atomically: a temporary file beside it,
// fsynced, then renamed over it, so a crash leaves the old file or the new
// one, never a torn or empty one. Files are 0600, as before renameio.
func writeFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return renameio.WriteFile(path, data, 0o600, renameio.WithTempDir(dir))
}

// PutBlob stores b as a content file and returns its SHA-256 (hex).
func (c *Cache) PutBlob(b []byte) (string, error) {
	sum := hashHex(b)
	p := c.blobPath(sum)
	if _, err := os.Stat(p); err == nil {
		return sum, nil
	}
	if err := writeFile(p, b); err != nil {
		return "", fmt.Errorf("web cache: %w", err)
	}
	return sum, nil
}

// Blob returns the content file with the given SHA-256.
func (c *Cache) Blob(sum string) ([]byte, error) {
	if len(sum) != 64 {
		return nil, fmt.Errorf("web cache: bad hash %q", sum)
	}
	b, err := os.ReadFile(c.blobPath(sum))
	if err != nil {
		return nil, fmt.Errorf("web cache: %w", err)
	}
	return b, nil
}

// Put stores e, replacing an earlier entry for the same query.
func (c *Cache) Put(e *Entry) error {
	data, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return fmt.Errorf("web cache: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := writeFile(c.entryPath(e.Query), data); err != nil {
		return fmt.Errorf("web cache: %w", err)
	}
	return nil
}

// Get returns the entry for query; ok is false when there is none.
func (c *Cache) Get(query string) (e *Entry, ok bool, err error) {
	data, err := os.ReadFile(c.entryPath(query))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("web cache: %w", err)
	}
	e = new(Entry)
	if err := json.Unmarshal(data, e); err != nil {
		return nil, false, fmt.Errorf("web cache: %s: %w", c.entryPath(query), err)
	}
	if e.Query != query { // hash collision or hand-edited file
		return nil, false, nil
	}
	return e, true, nil
}
