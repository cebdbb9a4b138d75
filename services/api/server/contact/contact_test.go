package contact

import "testing"

func contactBody(extra string) []byte {
	return []byte(`{"name":"Agent","email":"agent@example.com","message":"Hello"` + extra + `}`)
}

// FuzzParseContact: any body is answered with a message or a 400, never a
// panic, and an accepted one respects the bounds.
func FuzzParseContact(f *testing.F) {
	f.Add(contactBody(""))
	f.Add(contactBody(`,"captcha_response":"x","form_ts":1764000000000`))
	f.Add(contactBody(`,"tipo":"anuncio","espaco":["llms_txt","llms_txt"],"duracao":"90"`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"name":1}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		m, req, err := Parse(body)
		if err != nil {
			return
		}
		if m.Name == "" || m.Email == "" || m.Message == "" || len(req.Placements) > 6 {
			t.Fatalf("accepted %+v", m)
		}
		if req.CaptchaResponse != nil && req.FormTS == nil {
			t.Fatal("human path without form_ts accepted")
		}
	})
}
