// Package github is the sweep's client of the GitHub API: repository search,
// batched reads of repository signals, trees and blobs over GraphQL
// (shurcooL/githubv4), and REST code search for the second discoverer.
//
// It owns the budget rules: every GraphQL call asks for
// rateLimit { cost remaining resetAt } and the client pauses until resetAt
// when the remaining budget runs low; secondary limits (403/429 with
// Retry-After, or a RATE_LIMITED error) are waited out and retried a bounded
// number of times; code search is paced to CodeSearchInterval. Sleeping goes
// through a Clock so that tests run without waiting.
//
// Queries use GitHub's real schema names only:
//
//	search(query:, type: REPOSITORY, first:, after:) { repositoryCount pageInfo
//	    { endCursor hasNextPage } nodes { ... on Repository { owner { login } name } } }
//	rN: repository(owner:, name:) { owner { login } name stargazerCount forkCount
//	    pushedAt isArchived isFork isPrivate primaryLanguage { name }
//	    licenseInfo { spdxId } defaultBranchRef { name target { oid } } }
//	tN: repository(owner:, name:) { object(expression: "HEAD:<dir>") { ... on Tree
//	    { entries { name type path object { ... on Tree { entries { ... } } } } } } }
//	bN: repository(owner:, name:) { object(expression: "HEAD:<path>") { ... on Blob
//	    { oid byteSize isBinary isTruncated text } } }
//	rateLimit { cost remaining resetAt }
//
// and REST GET /search/code?q=...&per_page=100&page=N.
//
// A repository that no longer resolves answers NOT_FOUND for its alias; the
// client reports it as Gone and keeps the rest of the response.
//
// This package does no storage; the worker decides what a result means.
package github
