package run

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	bolt "go.etcd.io/bbolt"

	"github.com/paperlens/paperlens/internal/boltopen"
	"github.com/paperlens/paperlens/model"
)

// PromptsFile holds, with --log-prompts, every prompt exactly as sent,
// once per distinct prompt (runs repeat them), gzip-compressed: a whole
// paper per question adds up, and papers compress about 3:1.
const PromptsFile = "prompts.db"

var bucketPrompts = []byte("prompts")

// promptLog stores prompts by the SHA-256 of their messages' JSON.
type promptLog struct{ db *bolt.DB }

func openPromptLog(path string) (*promptLog, error) {
	// The run folder's lock keeps other evals out; what can hold the file
	// is a 'paperlens prompt' reading it.
	db, err := boltopen.Open(path, boltopen.Options{What: "prompt log",
		Holder: "'paperlens prompt' reading it"})
	if err != nil {
		return nil, err
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(bucketPrompts)
		return err
	}); err != nil {
		db.Close()
		return nil, err
	}
	return &promptLog{db: db}, nil
}

func (p *promptLog) Close() error { return p.db.Close() }

// put stores msgs unless already there and returns their hash.
func (p *promptLog) put(msgs []model.Message) (string, error) {
	raw, err := json.Marshal(msgs)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(raw)
	key := sum[:]
	var have bool
	_ = p.db.View(func(tx *bolt.Tx) error {
		have = tx.Bucket(bucketPrompts).Get(key) != nil
		return nil
	})
	if !have {
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		w.Write(raw)
		w.Close()
		// Batch coalesces the workers' writes into shared commits.
		if err := p.db.Batch(func(tx *bolt.Tx) error {
			return tx.Bucket(bucketPrompts).Put(key, z.Bytes())
		}); err != nil {
			return "", fmt.Errorf("log prompt: %w", err)
		}
	}
	return hex.EncodeToString(key), nil
}

// readPrompt returns the messages hash names from the prompt log at path.
func readPrompt(path, hash string) ([]model.Message, error) {
	key, err := hex.DecodeString(hash)
	if err != nil || len(key) != sha256.Size {
		return nil, fmt.Errorf("prompt hash %q is not a SHA-256", hash)
	}
	db, err := boltopen.Open(path, boltopen.Options{What: "prompt log", ReadOnly: true,
		Holder: "an eval writing it with --log-prompts"})
	if errors.Is(err, boltopen.ErrNoFile) {
		return nil, fmt.Errorf("%w (was the run made with --log-prompts?)", err)
	}
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var z []byte
	_ = db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bucketPrompts); b != nil {
			z = bytes.Clone(b.Get(key))
		}
		return nil
	})
	if z == nil {
		return nil, errors.New("no prompt " + hash + " in " + path)
	}
	r, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var msgs []model.Message
	return msgs, json.Unmarshal(raw, &msgs)
}
