package discovery

import "github.com/labstack/echo/v4"

// Links puts RFC 8288 Link headers on every answer, so an agent
// that fetched any URL of the service learns where its machine interfaces
// are: the API catalog (RFC 9727), the OpenAPI document (service-desc, RFC
// 8631) and llms.txt (describedby).
func Links(baseURL string) echo.MiddlewareFunc {
	links := "<" + baseURL + "/.well-known/api-catalog>; rel=\"api-catalog\", " +
		"<" + baseURL + "/openapi.json>; rel=\"service-desc\"; type=\"application/json\", " +
		"<" + baseURL + "/llms.txt>; rel=\"describedby\"; type=\"text/plain\""
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			c.Response().Header().Set("Link", links)
			return next(c)
		}
	}
}
