package prompts

import (
	"fmt"
	"strings"
)

// RenderJudge renders the grading prompt for one LPFQA answer. When the
// dataset row carries its own judge template (judge_prompt_template), that
// template takes precedence, as the data is what the benchmark's authors
// ran; otherwise the set's lpfqa_judge (appendix B of the paper) is used.
//
// A row template is Python str.format text, the form third-party LPFQA
// harnesses apply it in, with the placeholders {prompt} (the question),
// {response_reference} (the reference as published, "<参考答案>: …
// <评估要点>: …") and {response} (the answer being graded); "{{" and "}}"
// stand for literal braces. A brace pair around anything that is not a
// name, such as unescaped JSON, is copied as is, but an unknown name is an
// error, as is a template without {response}: either would send the judge
// a prompt without the answer to grade. The row's judge_system_prompt, if
// any, is the caller's to send as the system message.
func RenderJudge(s *Set, rowTemplate string, data JudgeData) (string, error) {
	if strings.TrimSpace(rowTemplate) == "" {
		return s.Render(LPFQAJudge, data)
	}
	ref := data.RawReference
	if ref == "" {
		ref = "<参考答案>: " + data.Reference
		if data.KeyPoints != "" {
			ref += "\n<评估要点>: " + data.KeyPoints
		}
	}
	out, used, err := pyFormat(rowTemplate, map[string]string{
		"prompt": data.Question, "response_reference": ref, "response": data.Answer,
	})
	if err != nil {
		return "", fmt.Errorf("prompts: row judge template: %w", err)
	}
	if !used["response"] {
		return "", fmt.Errorf("prompts: row judge template has no {response} placeholder, so the answer would not reach the judge (placeholders: {prompt}, {response_reference}, {response})")
	}
	return out, nil
}

// pyFormat substitutes {name} placeholders as Python's str.format does for
// plain names, with {{ and }} as literal braces. It reports which names it
// used.
func pyFormat(tmpl string, vals map[string]string) (string, map[string]bool, error) {
	var b strings.Builder
	used := map[string]bool{}
	for i := 0; i < len(tmpl); {
		c := tmpl[i]
		switch {
		case c == '{' && strings.HasPrefix(tmpl[i:], "{{"):
			b.WriteByte('{')
			i += 2
		case c == '}' && strings.HasPrefix(tmpl[i:], "}}"):
			b.WriteByte('}')
			i += 2
		case c == '{':
			end := strings.IndexByte(tmpl[i+1:], '}')
			if end < 0 || !isName(tmpl[i+1:i+1+end]) {
				b.WriteByte(c) // not a placeholder: keep the brace
				i++
				continue
			}
			name := tmpl[i+1 : i+1+end]
			v, ok := vals[name]
			if !ok {
				return "", nil, fmt.Errorf("unknown placeholder {%s} (known: {prompt}, {response_reference}, {response})", name)
			}
			b.WriteString(v)
			used[name] = true
			i += end + 2
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), used, nil
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r != '_' && !(r >= 'a' && r <= 'z') && !(r >= 'A' && r <= 'Z') && !(i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
