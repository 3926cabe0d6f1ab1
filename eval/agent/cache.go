package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	bolt "go.etcd.io/bbolt"

	"github.com/paperlens/paperlens/internal/boltopen"
)

// MemCache is a ToolCache in memory, for tests and one-off runs.
type MemCache struct {
	mu   sync.Mutex
	m    map[string]Result
	Gets int // lookups, hits or not
	Hits int
}

// Get returns the result stored under key.
func (c *MemCache) Get(_ context.Context, key string) (Result, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.Gets++
	r, ok := c.m[key]
	if ok {
		c.Hits++
	}
	return r, ok, nil
}

// Put stores r under key.
func (c *MemCache) Put(_ context.Context, key string, r Result) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]Result{}
	}
	c.m[key] = r
	return nil
}

// FileCache is a ToolCache in a bbolt file: bucket "results" maps a
// result's hash (ResultHash) to its JSON, bucket "calls" a call's key
// (CallKey) to that hash, so that a passage list or page shown to many
// questions is stored once. Each Put is committed (fsynced) before it
// returns.
type FileCache struct {
	db   *bolt.DB
	path string
}

var (
	bucketCalls   = []byte("calls")
	bucketResults = []byte("results")
)

// OpenFileCache opens (creating when needed) the tool cache at path. The
// file is locked while open; Close releases it.
func OpenFileCache(path string) (*FileCache, error) {
	// Private: tool results quote the papers and the web pages searched.
	db, err := boltopen.Open(path, boltopen.Options{What: "tool cache", Private: true})
	if err != nil {
		return nil, err
	}
	err = db.Update(func(tx *bolt.Tx) error {
		if _, err := tx.CreateBucketIfNotExists(bucketCalls); err != nil {
			return err
		}
		_, err := tx.CreateBucketIfNotExists(bucketResults)
		return err
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("tool cache %s: %w", path, err)
	}
	return &FileCache{db: db, path: path}, nil
}

// Close releases the file.
func (c *FileCache) Close() error { return c.db.Close() }

// Get returns the result of the call stored under key.
func (c *FileCache) Get(_ context.Context, key string) (Result, bool, error) {
	var r Result
	found := false
	err := c.db.View(func(tx *bolt.Tx) error {
		h := tx.Bucket(bucketCalls).Get([]byte(key))
		if h == nil {
			return nil
		}
		v := tx.Bucket(bucketResults).Get(h)
		if v == nil {
			return fmt.Errorf("call %.12s names result %.12s, which is missing", key, h)
		}
		found = true
		return json.Unmarshal(v, &r)
	})
	if err != nil {
		return Result{}, false, fmt.Errorf("tool cache %s: %w", c.path, err)
	}
	return r, found, nil
}

// Put stores r under key, and r itself once under its hash.
func (c *FileCache) Put(_ context.Context, key string, r Result) error {
	v, err := json.Marshal(r)
	if err != nil {
		return err
	}
	h := []byte(ResultHash(r))
	err = c.db.Update(func(tx *bolt.Tx) error {
		res := tx.Bucket(bucketResults)
		if res.Get(h) == nil {
			if err := res.Put(h, v); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketCalls).Put([]byte(key), h)
	})
	if err != nil {
		return fmt.Errorf("tool cache %s: %w", c.path, err)
	}
	return nil
}

// Results counts the distinct results stored.
func (c *FileCache) Results() int {
	n := 0
	c.db.View(func(tx *bolt.Tx) error {
		n = tx.Bucket(bucketResults).Stats().KeyN
		return nil
	})
	return n
}
