#include "textflag.h"

// func dot4x8(q, r0 *float32, stride, n8 int, out *[32]float32)
//
// For rows r0, r0+stride, r0+2·stride, r0+3·stride (stride in float32s),
// the eight lane sums of q[i]·row[i] over i < n8 (a multiple of 8):
// lane j sums the elements i ≡ j (mod 8) in order, exactly the eight
// accumulators of dot's unrolled loop, so the bits match. Four rows share
// each load of q, and their sixteen independent adds hide the add latency
// that two accumulators per row alone could not.
TEXT ·dot4x8(SB), NOSPLIT, $0-40
	MOVQ q+0(FP), SI
	MOVQ r0+8(FP), DI
	MOVQ stride+16(FP), DX
	SHLQ $2, DX
	MOVQ n8+24(FP), CX
	SHLQ $2, CX
	MOVQ out+32(FP), AX
	LEAQ (DI)(DX*1), R8
	LEAQ (R8)(DX*1), R9
	LEAQ (R9)(DX*1), R10
	XORPS X0, X0
	XORPS X1, X1
	XORPS X2, X2
	XORPS X3, X3
	XORPS X4, X4
	XORPS X5, X5
	XORPS X6, X6
	XORPS X7, X7
	XORQ BX, BX
	TESTQ CX, CX
	JZ done

loop:
	MOVUPS (SI)(BX*1), X8
	MOVUPS 16(SI)(BX*1), X9
	MOVUPS (DI)(BX*1), X10
	MOVUPS 16(DI)(BX*1), X11
	MULPS X8, X10
	MULPS X9, X11
	ADDPS X10, X0
	ADDPS X11, X1
	MOVUPS (R8)(BX*1), X12
	MOVUPS 16(R8)(BX*1), X13
	MULPS X8, X12
	MULPS X9, X13
	ADDPS X12, X2
	ADDPS X13, X3
	MOVUPS (R9)(BX*1), X10
	MOVUPS 16(R9)(BX*1), X11
	MULPS X8, X10
	MULPS X9, X11
	ADDPS X10, X4
	ADDPS X11, X5
	MOVUPS (R10)(BX*1), X12
	MOVUPS 16(R10)(BX*1), X13
	MULPS X8, X12
	MULPS X9, X13
	ADDPS X12, X6
	ADDPS X13, X7
	ADDQ $32, BX
	CMPQ BX, CX
	JLT loop

done:
	MOVUPS X0, (AX)
	MOVUPS X1, 16(AX)
	MOVUPS X2, 32(AX)
	MOVUPS X3, 48(AX)
	MOVUPS X4, 64(AX)
	MOVUPS X5, 80(AX)
	MOVUPS X6, 96(AX)
	MOVUPS X7, 112(AX)
	RET
