package github

import (
	"context"
	"reflect"
)

// BlobBatch is the most files ReadBlobs asks for in one call.
const BlobBatch = 25

// FileRef names a file on a repository's default branch.
type FileRef struct {
	Repo RepoRef
	Path string
}

// Blob is a file's content as GitHub serves it.
type Blob struct {
	Missing   bool // the file, or its repository, is not there
	OID       string
	ByteSize  int
	Binary    bool
	Truncated bool // GitHub cut Text short (large files)
	Text      string
}

// blobNode is the selection object(expression:) { ... on Blob { ... } }.
type blobNode struct {
	Blob struct {
		Oid         string  `graphql:"oid"`
		ByteSize    int     `graphql:"byteSize"`
		IsBinary    *bool   `graphql:"isBinary"`
		IsTruncated bool    `graphql:"isTruncated"`
		Text        *string `graphql:"text"`
	} `graphql:"... on Blob"`
}

// ReadBlobs reads files from the default branches of their repositories,
// BlobBatch per call, and returns them in the order of files.
func (c *Client) ReadBlobs(ctx context.Context, files []FileRef) ([]Blob, error) {
	out := make([]Blob, 0, len(files))
	for start := 0; start < len(files); start += BlobBatch {
		part := files[start:min(start+BlobBatch, len(files))]
		calls := make([]aliasCall, len(part))
		for i, f := range part {
			calls[i] = aliasCall{repo: f.Repo, expr: "HEAD:" + f.Path}
		}
		q, vars := batchQuery("b", calls, func(i int) reflect.Type { return objectAt(i, reflect.TypeOf(blobNode{})) })
		notFound, err := c.query(ctx, "read blobs", q.Interface(), vars)
		if err != nil {
			return nil, err
		}
		c.observe(rateOf(q))
		for i := range part {
			v := aliasValue(q, i)
			if notFound[aliasName("b", i)] || v.IsNil() {
				out = append(out, Blob{Missing: true})
				continue
			}
			obj := v.Elem().Field(0).Interface().(*blobNode)
			if obj == nil || obj.Blob.Oid == "" {
				out = append(out, Blob{Missing: true})
				continue
			}
			b := Blob{OID: obj.Blob.Oid, ByteSize: obj.Blob.ByteSize, Truncated: obj.Blob.IsTruncated}
			if obj.Blob.IsBinary != nil {
				b.Binary = *obj.Blob.IsBinary
			}
			if obj.Blob.Text != nil {
				b.Text = *obj.Blob.Text
			}
			out = append(out, b)
		}
	}
	return out, nil
}
