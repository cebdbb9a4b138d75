package githubtest

import (
	"maps"
	"slices"
	"time"
)

// lookup returns the current snapshot of owner/name (case-insensitive), or nil.
func (s *Server) lookup(owner, name string) *repoSnap {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.repos[repoKey(owner, name)]
}

// snapshots returns every repository, sorted by full name.
func (s *Server) snapshots() []*repoSnap {
	s.mu.RLock()
	out := slices.Collect(maps.Values(s.repos))
	s.mu.RUnlock()
	slices.SortFunc(out, func(a, b *repoSnap) int { return compareFold(a.FullName(), b.FullName()) })
	return out
}

// AddRepo adds or replaces a repository (files are copied). Missing
// DefaultBranch, CreatedAt and PushedAt are filled as Repo describes.
func (s *Server) AddRepo(r Repo) {
	r.fill()
	s.mu.Lock()
	defer s.mu.Unlock()
	key := repoKey(r.Owner, r.Name)
	id := s.nextID
	if old := s.repos[key]; old != nil {
		id = old.dbID
	} else {
		s.nextID++
	}
	s.repos[key] = newSnap(r, id)
}

// Repo returns a copy of a stored repository.
func (s *Server) Repo(owner, name string) (Repo, bool) {
	snap := s.lookup(owner, name)
	if snap == nil {
		return Repo{}, false
	}
	r := snap.Repo
	r.Files = maps.Clone(r.Files)
	r.Topics = slices.Clone(r.Topics)
	return r, true
}

// RepoNames lists "owner/name" of every repository, sorted.
func (s *Server) RepoNames() []string {
	var out []string
	for _, r := range s.snapshots() {
		out = append(out, r.FullName())
	}
	return out
}

// RemoveRepo deletes a repository; later lookups answer NOT_FOUND.
func (s *Server) RemoveRepo(owner, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.repos, repoKey(owner, name))
}

// update applies fn to a copy of the repository and stores it; false when
// the repository does not exist.
func (s *Server) update(owner, name string, fn func(r *Repo)) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := repoKey(owner, name)
	old := s.repos[key]
	if old == nil {
		return false
	}
	r := old.Repo
	r.Files = maps.Clone(r.Files)
	r.Topics = slices.Clone(r.Topics)
	fn(&r)
	s.repos[key] = newSnap(r, old.dbID)
	return true
}

// SetFile writes a file (and bumps pushedAt by one second); false when the
// repository does not exist.
func (s *Server) SetFile(owner, name, path string, content []byte) bool {
	return s.update(owner, name, func(r *Repo) {
		if r.Files == nil {
			r.Files = map[string][]byte{}
		}
		r.Files[path] = slices.Clone(content)
		r.PushedAt = r.PushedAt.Add(time.Second)
	})
}

// RemoveFile deletes a file (and bumps pushedAt); false when the repository
// does not exist.
func (s *Server) RemoveFile(owner, name, path string) bool {
	return s.update(owner, name, func(r *Repo) {
		delete(r.Files, path)
		r.PushedAt = r.PushedAt.Add(time.Second)
	})
}

// SetArchived sets isArchived.
func (s *Server) SetArchived(owner, name string, archived bool) bool {
	return s.update(owner, name, func(r *Repo) { r.Archived = archived })
}

// SetDescription sets the description ("" = null).
func (s *Server) SetDescription(owner, name, description string) bool {
	return s.update(owner, name, func(r *Repo) { r.Description = description })
}

// SetTopics replaces the topics.
func (s *Server) SetTopics(owner, name string, topics ...string) bool {
	return s.update(owner, name, func(r *Repo) { r.Topics = slices.Clone(topics) })
}

// SetStars sets stargazerCount and forkCount.
func (s *Server) SetStars(owner, name string, stars, forks int) bool {
	return s.update(owner, name, func(r *Repo) { r.Stars, r.Forks = stars, forks })
}

// SetPushedAt sets pushedAt.
func (s *Server) SetPushedAt(owner, name string, t time.Time) bool {
	return s.update(owner, name, func(r *Repo) { r.PushedAt = t })
}
