/* test_report.c — herd7's result block and hash on hand-built tests and
 * results: exact text, herd's orders, herd's instruction spelling. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "litmus/litmus.h"
#include "report/report.h"
#include "test_build.h"

static int failures;

#define CHECK(cond)                                                                   \
	do {                                                                          \
		if (!(cond)) {                                                        \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			failures++;                                                   \
		}                                                                     \
	} while (0)

static void check_text(const char *got, const char *want, int line)
{
	if (strcmp(got, want)) {
		fprintf(stderr, "%s:%d: text differs\n--- got:\n%s\n--- want:\n%s\n", __FILE__, line, got, want);
		failures++;
	}
}

/* ---- instructions in herd's spelling ---------------------------------------- */

static const char *rename_test(void *ctx, const char *l)
{
	(void)ctx;
	if (!strcmp(l, "Loop"))
		return "L00";
	if (!strcmp(l, "Out"))
		return "L01";
	return NULL;
}

static void instr_case(const char *arch, const char *text, const char *want, int line)
{
	strbuf b = { 0 };
	arch_herd_print(arch_find(arch), text, rename_test, NULL, &b);
	check_text(b.s ? b.s : "", want, line);
	sb_free(&b);
}

static void test_instructions(void)
{
	instr_case("PPC", "lwz r1,0(r2)", "lwz r1,0(r2)", __LINE__);
	instr_case("PPC", "LWZ  R1, 0x10( R2 )", "lwz r1,16(r2)", __LINE__);
	instr_case("PPC", "ld r6,0,r5", "lwz r6,0(r5)", __LINE__);
	instr_case("PPC", "std r1,0(r5)", "stw r1,0(r5)", __LINE__);
	instr_case("PPC", "stdx r7,r1,r5", "stwx r7,r1,r5", __LINE__);
	instr_case("PPC", "xor r3,r1,r1", "xor r3,r1,r1", __LINE__);
	instr_case("PPC", "li r1,-1", "li r1,-1", __LINE__);
	instr_case("PPC", "bne Loop", "bne  L00", __LINE__);
	instr_case("PPC", "b Out", "b   L01", __LINE__);
	instr_case("PPC", "beq cr0,Out", "beq  L01", __LINE__);
	instr_case("PPC", "cmpw cr0,r1,r2", "cmpw r1,r2", __LINE__);
	instr_case("PPC", "cmpwi cr1,r1,3", "cmpwi cr1,r1,3", __LINE__);
	instr_case("PPC", "stwcx. r4,r0,r3", "stwcx. r4,r0,r3", __LINE__);
	instr_case("PPC", "lwz r1,0(%y1)", "lwz r1,0(%y1)", __LINE__);
	instr_case("PPC", "sync", "sync", __LINE__);
	instr_case("X86", "mov [x], 1", "MOV [x],$1", __LINE__);
	instr_case("X86", "MOV EAX,[y]", "MOV EAX,[y]", __LINE__);
	instr_case("X86", "mov eax, $0x2", "MOV EAX,$2", __LINE__);
	instr_case("X86", "xchg [x],eax", "XCHG [x],EAX", __LINE__);
	instr_case("X86", "cmp eax,0", "CMP  EAX,$0", __LINE__);
	instr_case("X86", "lock inc [x]", "LOCK; INC  [x]", __LINE__);
	instr_case("X86", "movl [x],$3", "MOV [x],$3", __LINE__);
	instr_case("X86", "jne Loop", "JNE L00", __LINE__);
	instr_case("X86", "mfence", "MFENCE", __LINE__);
	instr_case("X86_64", "movq $2,(x)", "movq $2,(x)", __LINE__);
	instr_case("X86_64", "movq (a), %RAX", "movq (a),%rax", __LINE__);
	instr_case("X86_64", "mfence", "mfence", __LINE__);
	instr_case("X86_64", "xchgq %rax,(x)", "xchgq %rax,(x)", __LINE__);
}

/* ---- the result block ------------------------------------------------------------ */

/* PPC test with registers r2 and r10 in P0 and r1 in P1, locations x, y. */
static litmus_test *block_test(void)
{
	litmus_test *t = tb_test("PPC", "T+block", 2);
	tb_loc(t, "y");
	tb_loc(t, "x");
	tb_reg(&t->threads[0], "r10");
	tb_reg(&t->threads[0], "r2");
	tb_reg(&t->threads[1], "r1");
	t->hash = xstrdup("0123456789abcdef0123456789abcdef");
	return t;
}

static void set_state(final_state *s, value a, value b, value c, value d, bool holds, long count)
{
	s->vals = xmalloc(4 * sizeof *s->vals);
	s->vals[0] = a;
	s->vals[1] = b;
	s->vals[2] = c;
	s->vals[3] = d;
	s->holds = holds;
	s->count = count;
}

static void test_block(void)
{
	litmus_test *t = block_test();
	/* exists ([y]=1 /\ (0:r10=x \/ 0:r2=0) /\ 1:r1=2) */
	cond *left = tb_cond(COND_AND, tb_eq_mem(0, value_int(1)),
	                     tb_cond(COND_OR, tb_eq_reg(0, 0, 0), tb_eq_reg(0, 1, 0)));
	left->r->l->rhs = value_addr(1);
	t->cond = tb_cond(COND_AND, left, tb_eq_reg(1, 0, 2));
	t->quant = Q_EXISTS;
	test_result r = { 0 };
	r.n_lvals = 4;
	r.lvals = xmalloc(4 * sizeof *r.lvals);
	r.lvals[0] = t->cond->l->l->lhs;        /* [y]    */
	r.lvals[1] = t->cond->l->r->l->lhs;     /* 0:r10  */
	r.lvals[2] = t->cond->l->r->r->lhs;     /* 0:r2   */
	r.lvals[3] = t->cond->r->lhs;           /* 1:r1   */
	r.n_states = 3;
	r.states = xcalloc(3, sizeof *r.states);
	set_state(&r.states[0], value_int(1), value_addr(1), value_int(10), value_int(2), true, 2);
	set_state(&r.states[1], value_int(0), value_int(5), value_int(-1), value_int(2), false, 1);
	set_state(&r.states[2], value_int(0), value_int(5), value_int(3), value_int(2), false, 1);
	r.pos = 2;
	r.neg = 2;
	r.n_flags = 1;
	r.flags = xmalloc(sizeof *r.flags);
	r.flags[0] = xstrdup("mixed");
	r.time = 0.25;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	report_herd(f, t, &r, true, false);
	fclose(f);
	check_text(buf,
	           "Test T+block Allowed\n"
	           "States 3\n"
	           "0:r2=-1; 0:r10=5; 1:r1=2; [y]=0;\n"
	           "0:r2=3; 0:r10=5; 1:r1=2; [y]=0;\n"
	           "0:r2=10; 0:r10=x; 1:r1=2; [y]=1;\n"
	           "Ok\n"
	           "Witnesses\n"
	           "Positive: 2 Negative: 2\n"
	           "Flag mixed\n"
	           "Condition exists ([y]=1 /\\ (0:r10=x \\/ 0:r2=0) /\\ 1:r1=2)\n"
	           "Observation T+block Sometimes 2 2\n"
	           "Time T+block 0.25\n"
	           "Hash=0123456789abcdef0123456789abcdef\n"
	           "\n",
	           __LINE__);
	free(buf);

	/* ~exists: Forbidden, witnesses swapped, Ok when no positive */
	t->quant = Q_NOT_EXISTS;
	r.pos = 0;
	r.neg = 4;
	r.loop = true;
	buf = NULL;
	f = open_memstream(&buf, &len);
	report_herd(f, t, &r, false, false);
	fclose(f);
	CHECK(strstr(buf, "Test T+block Forbidden\n") != NULL);
	CHECK(strstr(buf, "Loop Ok\nWitnesses\nPositive: 4 Negative: 0\n") != NULL);
	CHECK(strstr(buf, "Condition ~exists (") != NULL);
	CHECK(strstr(buf, "Observation T+block Never 0 4\n") != NULL);
	CHECK(strstr(buf, "Time ") == NULL);
	free(buf);

	/* forall: Required, No when a negative exists; timed out prints nothing */
	t->quant = Q_FORALL;
	r.pos = 3;
	r.neg = 1;
	r.loop = false;
	buf = NULL;
	f = open_memstream(&buf, &len);
	report_herd(f, t, &r, false, false);
	r.timed_out = true;
	report_herd(f, t, &r, false, false);
	fclose(f);
	CHECK(strstr(buf, "Test T+block Required\n") != NULL);
	CHECK(strstr(buf, "\nNo\nWitnesses\nPositive: 3 Negative: 1\n") != NULL);
	CHECK(strstr(buf, "Observation T+block Sometimes 3 1\n") != NULL);
	CHECK(strstr(buf + 1, "Test T+block") == NULL);
	free(buf);
	test_result_free(&r);
	tb_free(t);
}

static void cond_case(litmus_test *t, cond *c, const char *want, int line)
{
	tb_cond_free(t->cond);
	t->cond = c;
	strbuf b = { 0 };
	report_condition(t, &b);
	check_text(b.s, want, line);
	sb_free(&b);
}

static void test_conditions(void)
{
	litmus_test *t = block_test();
	t->quant = Q_EXISTS;
	cond_case(t, tb_cond(COND_TRUE, NULL, NULL), "exists (true)", __LINE__);
	cond_case(t, tb_cond(COND_NOT, tb_cond(COND_AND, tb_eq_reg(0, 0, 1), tb_eq_mem(1, value_int(2))), NULL),
	          "exists (not (0:r10=1 /\\ [x]=2))", __LINE__);
	cond *ne = tb_eq_reg(1, 0, 4);
	ne->kind = COND_NE;
	cond_case(t, ne, "exists (not (1:r1=4))", __LINE__);
	/* \/ under \/ and /\ under \/: no parentheses */
	cond_case(t, tb_cond(COND_OR, tb_cond(COND_AND, tb_eq_reg(0, 0, 1), tb_eq_reg(0, 1, 1)),
	                     tb_cond(COND_OR, tb_eq_reg(1, 0, 1), tb_cond(COND_FALSE, NULL, NULL))),
	          "exists (0:r10=1 /\\ 0:r2=1 \\/ 1:r1=1 \\/ false)", __LINE__);
	/* => under /\ and /\ under => */
	cond_case(t, tb_cond(COND_AND, tb_cond(COND_IMPLIES, tb_cond(COND_AND, tb_eq_reg(0, 0, 1), tb_eq_reg(0, 1, 1)),
	                                       tb_eq_reg(1, 0, 1)),
	                     tb_eq_mem(0, value_int(0))),
	          "exists (((0:r10=1 /\\ 0:r2=1) => 1:r1=1) /\\ [y]=0)", __LINE__);
	t->quant = Q_FORALL;
	cond_case(t, tb_eq_mem(1, value_addr(0)), "forall ([x]=y)", __LINE__);
	tb_free(t);
}

/* ---- herd's hash -------------------------------------------------------------- */

/* Tests of our own, parsed from text: the hash is computed from what the
 * reader keeps (the init block as written) and never reads the file.  The
 * expected digests were computed by the same algorithm, checked against
 * herd7's Hash= lines on the whole corpus. */
static const char ppc_text[] =
	"PPC weft-hash-check\n"
	"\"a doc string\"\n"
	"Foo=bar\n"
	"{\n"
	"0:r2=x; 0:r4=y; P1:r2=y;\n"
	"1:r5=x; x=0;\n"
	"}\n"
	" P0            | P1           ;\n"
	" li r1,1       | lwz r1,0(r2) ;\n"
	" stw r1,0(r2)  | cmpw r1,r1   ;\n"
	" lwsync        | beq Lend     ;\n"
	" li r3,1       | Lend:        ;\n"
	" stw r3,0(r4)  | lwz r3,0(r5) ;\n"
	"exists (1:r1=1 /\\ 1:r3=0)\n";

static const char x86_text[] =
	"X86 weft-x86-check\n"
	"{x=0; y=0;}\n"
	" P0          | P1           ;\n"
	" MOV [x],$1  | mov EAX,[y]  ;\n"
	" MFENCE      | mov EBX, [x] ;\n"
	" MOV [y],1   |              ;\n"
	"exists (1:EAX=1 /\\ 1:EBX=0)\n";

static litmus_test *parse_text(const char *path, const char *text)
{
	litmus_test *t = litmus_parse_string(path, text, NULL);
	CHECK(t != NULL);
	return t;
}

static void test_hash_ppc(void)
{
	litmus_test *t = parse_text("weft-hash-check.litmus", ppc_text);
	if (!t)
		return;
	char hex[33];
	test_hash_compute(t, hex);
	check_text(hex, "fe1b28e0a29c70ff1a6150001655ea67", __LINE__);
	test_hash(t, hex);
	check_text(hex, "fe1b28e0a29c70ff1a6150001655ea67", __LINE__);
	/* a Hash= line wins */
	t->hash = xstrdup("00000000000000000000000000000001");
	test_hash(t, hex);
	check_text(hex, "00000000000000000000000000000001", __LINE__);
	litmus_test_free(t);
	/* label names and layout do not matter, the observed locations do */
	t = parse_text("weft-hash-check.litmus",
		       "PPC weft-hash-check\n{0:r2=x;0:r4=y;P1:r2=y;1:r5=x;x=0}\n"
		       "P0|P1;li r1,1|lwz r1,0(r2);stw r1,0(r2)|cmpw r1,r1;lwsync|beq Lq;\n"
		       "li r3,1|Lq:;stw r3,0(r4)|lwz r3,0(r5);\n"
		       "exists (1:r1=1 /\\ 1:r3=0)\n");
	if (t) {
		test_hash(t, hex);
		check_text(hex, "fe1b28e0a29c70ff1a6150001655ea67", __LINE__);
		litmus_test_free(t);
	}
	const char *cond = strstr(ppc_text, "exists");
	strbuf moved = { 0 };
	sb_putn(&moved, ppc_text, (size_t)(cond - ppc_text));
	sb_puts(&moved, "locations [x;]\n");
	sb_puts(&moved, cond);
	t = parse_text("weft-hash-check.litmus", moved.s);
	if (t) {
		test_hash(t, hex);
		CHECK(strcmp(hex, "fe1b28e0a29c70ff1a6150001655ea67") != 0);
		litmus_test_free(t);
	}
	sb_free(&moved);
}

static void test_hash_x86(void)
{
	/* the file named is not there: the hash does not read it */
	litmus_test *t = parse_text("/nonexistent/weft-x86-check.litmus", x86_text);
	if (!t)
		return;
	char hex[33];
	test_hash_compute(t, hex);
	check_text(hex, "88a3058c5ce1c16f062aa6b485962454", __LINE__);
	/* the init block as written: the same initial state written
	 * otherwise is another digest */
	litmus_test_free(t);
	t = parse_text("x.litmus", "X86 weft-x86-check\n{x=0;}\n P0          | P1           ;\n"
				   " MOV [x],$1  | mov EAX,[y]  ;\n MFENCE      | mov EBX, [x] ;\n"
				   " MOV [y],1   |              ;\nexists (1:EAX=1 /\\ 1:EBX=0)\n");
	if (t) {
		test_hash_compute(t, hex);
		CHECK(strcmp(hex, "88a3058c5ce1c16f062aa6b485962454") != 0);
		litmus_test_free(t);
	}
}

int main(void)
{
	test_instructions();
	test_block();
	test_conditions();
	test_hash_ppc();
	test_hash_x86();
	if (failures) {
		fprintf(stderr, "test_report: %d failure(s)\n", failures);
		return 1;
	}
	printf("test_report: ok\n");
	return 0;
}
