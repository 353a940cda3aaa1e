package badger

import (
	"context"

	dgbadger "github.com/dgraph-io/badger/v4"

	"pincer/persist"
	"pincer/persist/internal/record"
)

// AppendPrompt adds text as the project's newest prompt (keys in
// persist/internal/record/prompts.go). In one transaction it reads the newest
// prompt (an equal one stores nothing), writes the next sequence and drops
// the oldest past persist.PromptHistoryLimit; a racing append from another
// process conflicts and retries.
func (b *Store) AppendPrompt(ctx context.Context, project, text string) error {
	const op = "append prompt"
	if err := record.CheckProject(project); err != nil {
		return err
	}
	if !record.KeepPrompt(text) {
		return ctx.Err()
	}
	prefix := record.PromptPrefix(project)
	return b.update(ctx, op, func(txn *dgbadger.Txn) error {
		var last uint64
		it := txn.NewIterator(dgbadger.IteratorOptions{Reverse: true, Prefix: prefix})
		for it.Seek(record.SeekLast(prefix)); it.ValidForPrefix(prefix); it.Next() {
			seq, ok := record.SeqOf(prefix, it.Item().Key())
			if !ok {
				continue
			}
			val, err := it.Item().ValueCopy(nil)
			if err != nil {
				it.Close()
				return b.dbErr(op, err)
			}
			if string(val) == text {
				it.Close()
				return nil
			}
			last = seq
			break
		}
		it.Close()
		if err := b.set(txn, op, dgbadger.NewEntry(record.PromptKey(project, last+1), []byte(text))); err != nil {
			return err
		}
		return b.trimPrompts(txn, op, prefix)
	})
}

// trimPrompts deletes the oldest prompts under prefix past the limit; the
// prompt written in txn counts.
func (b *Store) trimPrompts(txn *dgbadger.Txn, op string, prefix []byte) error {
	var keys [][]byte
	it := txn.NewIterator(dgbadger.IteratorOptions{Prefix: prefix, PrefetchValues: false})
	for it.Seek(prefix); it.ValidForPrefix(prefix); it.Next() {
		keys = append(keys, it.Item().KeyCopy(nil))
	}
	it.Close()
	for _, k := range keys[:max(0, len(keys)-persist.PromptHistoryLimit)] {
		if err := txn.Delete(k); err != nil {
			return b.dbErr(op, err)
		}
	}
	return nil
}

// ListPrompts returns up to limit of the project's prompts, newest first.
func (b *Store) ListPrompts(ctx context.Context, project string, limit int) ([]string, error) {
	const op = "list prompts"
	if err := record.CheckProject(project); err != nil {
		return nil, err
	}
	prefix := record.PromptPrefix(project)
	out := []string{}
	err := b.view(ctx, op, func(txn *dgbadger.Txn) error {
		it := txn.NewIterator(dgbadger.IteratorOptions{Reverse: true, Prefix: prefix})
		defer it.Close()
		for it.Seek(record.SeekLast(prefix)); it.ValidForPrefix(prefix) && (limit <= 0 || len(out) < limit); it.Next() {
			if _, ok := record.SeqOf(prefix, it.Item().Key()); !ok {
				continue
			}
			val, err := it.Item().ValueCopy(nil)
			if err != nil {
				return b.dbErr(op, err)
			}
			out = append(out, string(val))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// PutDraft keeps text as the project's draft; "" deletes it.
func (b *Store) PutDraft(ctx context.Context, project, text string) error {
	const op = "put draft"
	if err := record.CheckProject(project); err != nil {
		return err
	}
	return b.update(ctx, op, func(txn *dgbadger.Txn) error {
		if text == "" {
			if err := txn.Delete(record.DraftKey(project)); err != nil {
				return b.dbErr(op, err)
			}
			return nil
		}
		return b.set(txn, op, dgbadger.NewEntry(record.DraftKey(project), []byte(text)))
	})
}

// GetDraft returns the project's draft, "" when there is none.
func (b *Store) GetDraft(ctx context.Context, project string) (string, error) {
	const op = "get draft"
	if err := record.CheckProject(project); err != nil {
		return "", err
	}
	var val []byte
	err := b.view(ctx, op, func(txn *dgbadger.Txn) error {
		var err error
		val, _, err = b.get(txn, op, record.DraftKey(project))
		return err
	})
	return string(val), err
}
