package pages

import (
	"io"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/web"
)

// The owner, repository and documentation pages.

// maxOwnerName bounds an owner or repository name of a page's path (GitHub
// allows 39 and 100 characters).
const maxOwnerName = 100

// ownerSegment lowercases a path segment of an owner or repository name,
// or refuses it as a 404 when it cannot be one.
func ownerSegment(s string) (string, error) {
	if s == "" || len(s) > maxOwnerName || strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != "" {
		return "", apierror.New(apierror.NotFound, "No GitHub owner or repository has that name.")
	}
	return strings.ToLower(s), nil
}

// getOwnerPage answers GET /o/{owner}: every bundle of the owner's
// repositories with its state.
func (s *Service) getOwnerPage(c echo.Context) error {
	owner, err := ownerSegment(c.Param("owner"))
	if err != nil {
		return err
	}
	list, more, err := s.d.Store.OwnerBundles(c.Request().Context(), owner)
	if err != nil {
		return err
	}
	v := web.NewOwnerView(web.OwnerInput{Owner: owner, Bundles: owned(list), More: more, Full: s.d.Full})
	v.Canonical = s.d.BaseURL + "/o/" + owner
	return Write(c, http.StatusOK, func(w io.Writer) error { return s.d.Site.Render(w, "owner", v) })
}

// getRepoPage answers GET /r/{owner}/{repo}: every bundle of the
// repository with its state, and what GET /api/status says of it.
func (s *Service) getRepoPage(c echo.Context) error {
	owner, err := ownerSegment(c.Param("owner"))
	if err != nil {
		return err
	}
	name, err := ownerSegment(c.Param("repo"))
	if err != nil {
		return err
	}
	repo := owner + "/" + name
	ctx := c.Request().Context()
	list, more, err := s.d.Store.RepoBundles(ctx, repo)
	if err != nil {
		return err
	}
	st, err := s.d.RepoStatus.Page(ctx, repo)
	if err != nil {
		return err
	}
	v := web.NewOwnerView(web.OwnerInput{Owner: owner, Repo: repo, Bundles: owned(list), More: more, Status: &st, Full: s.d.Full})
	v.Canonical = s.d.BaseURL + "/r/" + repo
	return Write(c, http.StatusOK, func(w io.Writer) error { return s.d.Site.Render(w, "owner", v) })
}

func owned(list []store.Bundle) []web.OwnedInput {
	out := make([]web.OwnedInput, len(list))
	for i, b := range list {
		out[i] = web.OwnedInput{Card: b.Card, Low: b.Visibility == wire.VisibilityLow}
	}
	return out
}

// getDocsPage answers GET /docs and GET /docs/{name}: a file of the
// service's documentation bundle rendered for people.
func (s *Service) getDocsPage(c echo.Context) error {
	name := c.Param("name")
	if name == "" {
		name = "index"
	}
	text, ok := s.d.Docs.OKFDoc(name + ".md")
	if !ok {
		return apierror.New(apierror.NotFound, "The documentation has index, sobre, api and faq; start at /docs.")
	}
	v := web.NewDocView(name+".md", text, s.d.Docs.OKFDocNames(), s.d.Full)
	v.Canonical = s.d.BaseURL + "/docs"
	if name != "index" {
		v.Canonical += "/" + name
	}
	return Write(c, http.StatusOK, func(w io.Writer) error { return s.d.Site.Render(w, "docs", v) })
}
