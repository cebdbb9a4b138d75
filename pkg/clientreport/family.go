package clientreport

// UAFamily reduces a User-Agent to the coarse browser family this package
// keeps of a report (FamilyChrome, FamilyFirefox, ..., FamilyBot,
// FamilyOther). The usage counter uses it to tell a visitor's browsers
// apart without keeping the User-Agent.
func UAFamily(userAgent string) string { return uaFamily(userAgent) }
