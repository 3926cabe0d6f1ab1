#include "textflag.h"

// func dot1x8(q, r *float32, n8 int, out *[8]float32)
//
// The eight lane sums of q[i]·r[i] over i < n8 (a multiple of 8): lane j
// sums the elements i ≡ j (mod 8) in order, exactly the eight accumulators
// of dotGo's unrolled loop, so the bits match. Multiplies and adds are
// separate (no FMA), as Go compiles dotGo for amd64.
TEXT ·dot1x8(SB), NOSPLIT, $0-32
	MOVQ q+0(FP), SI
	MOVQ r+8(FP), DI
	MOVQ n8+16(FP), CX
	SHLQ $2, CX
	MOVQ out+24(FP), AX
	XORPS X0, X0
	XORPS X1, X1
	XORQ BX, BX
	TESTQ CX, CX
	JZ done1

loop1:
	MOVUPS (SI)(BX*1), X8
	MOVUPS 16(SI)(BX*1), X9
	MOVUPS (DI)(BX*1), X10
	MOVUPS 16(DI)(BX*1), X11
	MULPS X8, X10
	MULPS X9, X11
	ADDPS X10, X0
	ADDPS X11, X1
	ADDQ $32, BX
	CMPQ BX, CX
	JLT loop1

done1:
	MOVUPS X0, (AX)
	MOVUPS X1, 16(AX)
	RET
