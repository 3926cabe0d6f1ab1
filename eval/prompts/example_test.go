package prompts_test

import (
	"fmt"

	"github.com/paperlens/paperlens/eval/mcq"
	"github.com/paperlens/paperlens/eval/prompts"
)

// A question's prompt is rendered in two steps: the context block, then the
// question template with that block as its Context.
func ExampleSet_Render() {
	set, err := prompts.Load("") // or the --prompt-dir directory
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, err := set.Render(prompts.ContextFullRAG, prompts.ContextData{
		Paper:    "Tiny Paper. We train with AdamW and report two ablations.",
		Passages: []prompts.Passage{{ID: "tiny#2", Rank: 1, Score: 0.82, Text: "Without warm-up the loss diverges."}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	text := "Which ablations does the paper report?\nA. Removing warm-up\nB. Doubling the batch\nC. Removing weight decay"
	prompt, err := set.Render(prompts.MCQBase, prompts.NewMCQData(text, mcq.Parse(text), "MA-MCQ", ctx))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(prompt)
	// Output:
	// Below is the full text of an academic paper.
	//
	// === Paper content ===
	// Tiny Paper. We train with AdamW and report two ablations.
	// === End of paper content ===
	//
	// === Auxiliary knowledge ===
	// The following passages were retrieved from the paper as relevant context for the question, best first. They are auxiliary knowledge: you may consult them alongside the original paper when formulating your response.
	//
	// [1] (passage tiny#2)
	// Without warm-up the loss diverges.
	//
	// === End of auxiliary knowledge ===
	//
	// Based on the content of the paper, answer the following multiple-choice question.
	// This question may have more than one correct answer. Identify all correct answer choices: a response that includes an incorrect option or misses a correct one receives zero points.
	//
	// Question: Which ablations does the paper report?
	// A. Removing warm-up
	// B. Doubling the batch
	// C. Removing weight decay
	//
	// Output only the final answer options: the letters of all correct options (from A, B, C), written together (e.g. AC), with no explanation.
}

// A dataset row's own judge template takes precedence over the paper's.
func ExampleRenderJudge() {
	set, err := prompts.Load("")
	if err != nil {
		fmt.Println(err)
		return
	}
	row := "{response_reference}\n<学生回答>: {response}\n输出 {{\"answer_score\": 0 或 1}}"
	p, err := prompts.RenderJudge(set, row, prompts.JudgeData{
		Question:     "某电机的额定电流约为多少安培？",
		RawReference: "<参考答案>：约 2.98 A\n<评估要点>：数值在 2.9–3.1 A 之间",
		Answer:       "约 3.0 A",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p)
	// Output:
	// <参考答案>：约 2.98 A
	// <评估要点>：数值在 2.9–3.1 A 之间
	// <学生回答>: 约 3.0 A
	// 输出 {"answer_score": 0 或 1}
}
