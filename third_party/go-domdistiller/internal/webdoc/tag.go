// ORIGINAL: java/webdocument/WebTag.java

// Copyright (c) 2020 Markus Mobius
//
// Permission is hereby granted, free of charge, to any person obtaining a copy
// of this software and associated documentation files (the "Software"), to deal
// in the Software without restriction, including without limitation the rights
// to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
// copies of the Software, and to permit persons to whom the Software is
// furnished to do so, subject to the following conditions:
//
// The above copyright notice and this permission notice shall be included in all
// copies or substantial portions of the Software.
//
// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
// IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
// FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
// AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
// LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
// OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
// SOFTWARE.

// Copyright 2015 The Chromium Authors. All rights reserved.
// Use of this source code is governed by a BSD-style license that can be
// found in the LICENSE file.

package webdoc

import "fmt"

// Tag represents HTML tags that need to be preserved over.
type Tag struct {
	BaseElement
	Name string
	Type TagType
}

func NewTag(name string, tagType TagType) *Tag {
	return &Tag{Name: name, Type: tagType}
}

func (t *Tag) ElementType() string {
	return "tag"
}

func (t *Tag) GenerateOutput(textOnly bool) string {
	if textOnly {
		return ""
	}

	if t.Type == TagStart {
		return "<" + t.Name + ">"
	}
	return "</" + t.Name + ">"
}

func (t *Tag) String() string {
	tp := "tag_start"
	if t.Type == TagEnd {
		tp = "tag_end"
	}

	return fmt.Sprintf("ELEMENT %q: name=%q, type=%s, is_content=%v",
		t.ElementType(), t.Name, tp, t.isContent)
}
