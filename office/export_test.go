package office

import (
	"reflect"
	"strings"
)

// InputMessageIDs lists every message id in's validate tags can give, by
// field (its form name): what a refused field reads.
func InputMessageIDs(in any) map[string][]string {
	t := reflect.TypeOf(in)
	out := map[string][]string{}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tags := sf.Tag.Get("validate")
		if tags == "" {
			continue
		}
		name := sf.Tag.Get("field")
		if name == "" {
			name = sf.Name
		}
		for _, tag := range strings.Split(tags, ",") {
			tag, param, _ := strings.Cut(tag, "=")
			if tag == "omitempty" {
				continue
			}
			if _, ok := enums[param]; tag == "enum" && !ok {
				out[name] = append(out[name], "no enum list named "+param)
				continue
			}
			out[name] = append(out[name], messageID(sf, tag))
		}
	}
	return out
}
