package search

import (
	"fmt"
	"time"

	"github.com/gorilla/feeds"
	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// GET /feed.atom: the newest changes of the change feed as an Atom 1.0
// document (RFC 4287) for people's feed readers, written with
// gorilla/feeds. The feed's id is its own URL; an entry's id is the URL of
// the one-event page of GET /api/changes that holds it, so ids are
// permanent and unique. Entries link the bundle's web page (added,
// updated) or the index (removed: the page is gone).

const (
	// AtomEntries is how many of the newest changes the feed holds.
	AtomEntries = 50
	mimeAtom    = "application/atom+xml; charset=utf-8"
)

// getFeedAtom answers GET /feed.atom.
func (s *Service) getFeedAtom(c echo.Context) error {
	changes, err := s.d.Store.RecentChanges(c.Request().Context(), AtomEntries)
	if err != nil {
		return err
	}
	body, err := s.atomFeed(changes)
	if err != nil {
		return err
	}
	var lastModified time.Time
	if len(changes) > 0 {
		lastModified = s.settled(changes[0].PlacedAt)
	}
	return respond.Conditional(c, mimeAtom, body, lastModified, respond.CacheAtom)
}

// atomFeed writes the document of changes (newest first). An entry's
// updated time is when its change was written (the at of GET /api/changes),
// not when the feed gave it its position: positions are given in bulk when
// the feed is read, so they would date a whole import's changes alike. The
// feed's updated time is its latest entry's, or the documents' time when
// there is none.
func (s *Service) atomFeed(changes []store.Change) ([]byte, error) {
	updated := s.d.Started
	for i, ch := range changes {
		if at := changeTime(ch); i == 0 || at.After(updated) {
			updated = at
		}
	}
	self := s.d.BaseURL + "/feed.atom"
	f := &feeds.Feed{
		Title:       s.d.Title + ": changes",
		Description: "Bundles added to, updated in and removed from the OKF Index, newest first.",
		Link:        &feeds.Link{Href: self, Rel: "self"},
		Author:      &feeds.Author{Name: s.d.Title},
		Updated:     updated,
	}
	atom := (&feeds.Atom{Feed: f}).AtomFeed()
	atom.Id = self
	atom.Link = &feeds.AtomLink{Href: self, Rel: "self", Type: "application/atom+xml"}
	for _, ch := range changes {
		atom.Entries = append(atom.Entries, s.atomEntry(ch))
	}
	xml, err := feeds.ToXML(atom)
	if err != nil {
		return nil, fmt.Errorf("server: atom feed: %w", err)
	}
	return []byte(xml), nil
}

// atomEntry is one change as an entry.
func (s *Service) atomEntry(ch store.Change) *feeds.AtomEntry {
	name := ch.Name
	if name == "" {
		name = ch.BundleID
	}
	before := EncodeChangeCursor(store.ChangeCursor{Pos: ch.Pos - 1})
	e := &feeds.AtomEntry{
		Id:      s.d.BaseURL + "/api/changes?since=" + before + "&limit=1",
		Updated: changeTime(ch).Format(time.RFC3339),
		Content: &feeds.AtomContent{Type: "text"},
	}
	switch ch.Kind {
	case wire.ChangeRemoved:
		e.Title = "Removed: " + name
		e.Content.Content = fmt.Sprintf("%s (%s) left the index: %s.", name, ch.BundleID, removalText(ch.Reason))
		e.Links = []feeds.AtomLink{{Href: s.d.BaseURL + "/", Rel: "alternate", Type: "text/html"}}
	default:
		verb := map[wire.ChangeKind]string{wire.ChangeAdded: "Added", wire.ChangeUpdated: "Updated"}[ch.Kind]
		e.Title = verb + ": " + name
		e.Content.Content = fmt.Sprintf("%s (%s) was %s.", name, ch.BundleID,
			map[wire.ChangeKind]string{wire.ChangeAdded: "added to the index", wire.ChangeUpdated: "updated"}[ch.Kind])
		e.Links = []feeds.AtomLink{
			{Href: s.d.BaseURL + "/b/" + ch.BundleID, Rel: "alternate", Type: "text/html"},
			{Href: s.d.BaseURL + "/api/bundles/" + ch.BundleID, Rel: "related", Type: "application/json"},
		}
	}
	return e
}

// changeTime is when a change was written, to the second (as GET
// /api/changes gives it).
func changeTime(ch store.Change) time.Time { return ch.At.UTC().Truncate(time.Second) }

// removalText says a tombstone's reason in words.
func removalText(r wire.RemovalReason) string {
	switch r {
	case wire.RemovedRepoGone:
		return "its repository no longer resolves"
	case wire.RemovedFileGone:
		return "its root index.md left the repository"
	case wire.RemovedKeyMismatch:
		return "its domain's IndexNow key file stopped matching"
	case wire.RemovedMadeLow:
		return "it is now kept out of search (an example path, or a copy of another bundle)"
	}
	return "it was deleted"
}
