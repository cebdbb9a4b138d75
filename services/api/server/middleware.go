package server

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// requestTimeout bounds the database work of one request; past it the
// request answers 503 unavailable.
const requestTimeout = 10 * time.Second

// corsMaxAge is how long a browser may cache a preflight answer, in seconds.
const corsMaxAge = "86400"

// middlewares returns the chain every request goes through, outermost first:
// request id, request log, panic recovery, CORS, request timeout.
func middlewares(log *slog.Logger) []echo.MiddlewareFunc {
	return []echo.MiddlewareFunc{
		middleware.RequestID(),
		requestLog(log),
		middleware.RecoverWithConfig(middleware.RecoverConfig{
			DisableStackAll:     true,
			DisableErrorHandler: true, // return the error to requestLog, which handles and logs it once
			LogErrorFunc: func(c echo.Context, err error, stack []byte) error {
				return fmt.Errorf("panic: %w\n%s", err, stack)
			},
		}),
		cors,
		timeout,
	}
}

// requestLog logs one line per request with its id, route, status and
// latency; failures of the service are logged at error level with their
// cause. It hands errors to the error handler first, so the logged status is
// the one the client got. It logs neither the client's address nor its
// User-Agent.
func requestLog(log *slog.Logger) echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		HandleError:  true,
		LogRequestID: true,
		LogMethod:    true,
		LogURI:       true,
		LogRoutePath: true,
		LogStatus:    true,
		LogLatency:   true,
		LogError:     true,
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			attrs := []slog.Attr{
				slog.String("request_id", v.RequestID),
				slog.String("method", v.Method),
				slog.String("uri", v.URI),
				slog.String("route", v.RoutePath),
				slog.Int("status", v.Status),
				slog.Float64("latency_ms", float64(v.Latency.Microseconds())/1000),
			}
			level := slog.LevelInfo
			if v.Error != nil {
				if _, _, internal := errorResponse(v.Error); internal {
					level = slog.LevelError
					attrs = append(attrs, slog.String("error", v.Error.Error()))
				}
			}
			log.LogAttrs(c.Request().Context(), level, "request", attrs...)
			return nil
		},
	})
}

// cors answers every request with Access-Control-Allow-Origin: * (contract
// section 1: every agent route), whether or not it carries an Origin header,
// and answers the preflight OPTIONS of an existing path with 204 and the
// methods the path allows. An OPTIONS to an unknown path is a 404 like any
// other method. (Echo's CORS middleware sets the header only when the
// request has an Origin, which agents do not send.)
func cors(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set(echo.HeaderAccessControlAllowOrigin, "*")
		if c.Request().Method != http.MethodOptions {
			return next(c)
		}
		// The router stores the methods of a path that exists but has no
		// OPTIONS route; an empty value means the path is unknown.
		allow, _ := c.Get(echo.ContextKeyHeaderAllow).(string)
		if allow == "" {
			return next(c)
		}
		h.Set(echo.HeaderAllow, allow)
		h.Set(echo.HeaderAccessControlAllowMethods, allow)
		if req := c.Request().Header.Get(echo.HeaderAccessControlRequestHeaders); req != "" {
			h.Set(echo.HeaderAccessControlAllowHeaders, req)
		} else {
			h.Set(echo.HeaderAccessControlAllowHeaders, "Accept, Content-Type")
		}
		h.Set(echo.HeaderAccessControlMaxAge, corsMaxAge)
		return c.NoContent(http.StatusNoContent)
	}
}

// timeout bounds the request's context by requestTimeout.
func timeout(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx, cancel := context.WithTimeout(c.Request().Context(), requestTimeout)
		defer cancel()
		c.SetRequest(c.Request().WithContext(ctx))
		return next(c)
	}
}
