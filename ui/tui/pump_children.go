package tui

import (
	"context"
	"errors"

	"pincer/core/event"
)

// Child followers: besides each tab's session, the pump follows the logs of
// that session's subagents (children.go says which), posting their events
// to the same inbox with the tab's key and generation and the child's
// session ID. They belong to the key's current follower: follow (another
// session shown there), unfollow (the tab closed) and stop end them, and a
// child's event posted under an older generation is dropped by drain, like
// the follower's own.

// followChild follows child session id for key's session from sequence 1,
// posting its events for applyChild; a no-op when it is already followed or
// the pump stopped. Event loop only (it reads key's live generation).
func (p *pump) followChild(key int, log *event.Log, id string, onErr func(error)) {
	gen, live := p.liveGen[key]
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped || !live || p.children[key][id] != nil {
		return
	}
	if p.children == nil {
		p.children = map[int]map[string]context.CancelFunc{}
	}
	if p.children[key] == nil {
		p.children[key] = map[string]context.CancelFunc{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.children[key][id] = cancel
	p.followWG.Add(1)
	go func() {
		defer p.followWG.Done()
		defer p.guard()
		err := log.Follow(ctx, id, 0, func(ev event.Event) error {
			if ctx.Err() != nil {
				return event.ErrStop
			}
			p.postChildEvent(key, id, ev, gen)
			return nil
		})
		if err != nil && !errors.Is(err, context.Canceled) && onErr != nil {
			onErr(err)
			p.markDirty()
		}
	}()
}

// unfollowChild stops following child session id of key's session (its log
// has ended: the subagent completed). Safe from any goroutine.
func (p *pump) unfollowChild(key int, id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if cancel := p.children[key][id]; cancel != nil {
		cancel()
		delete(p.children[key], id)
	}
}

// followsChild reports whether child session id is followed for key now.
func (p *pump) followsChild(key int, id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.children[key][id] != nil
}

// endChildrenLocked stops the child followers of key; p.mu is held.
func (p *pump) endChildrenLocked(key int) {
	for _, cancel := range p.children[key] {
		cancel()
	}
	delete(p.children, key)
}

// postChildEvent queues an event of child session child for key, as
// postEvent does.
func (p *pump) postChildEvent(key int, child string, ev event.Event, gen int64) {
	p.inboxMu.Lock()
	p.inbox = append(p.inbox, message{ev: ev, key: key, gen: gen, child: child})
	p.inboxMu.Unlock()
	p.markDirty()
}
