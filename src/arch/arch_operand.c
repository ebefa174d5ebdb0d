/* arch_operand.c — the instruction-text cursor and op shorthands shared by
 * the per-architecture translators (see arch_operand.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arch_operand.h"

static bool is_blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n'; }
static bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }
static bool is_alpha(char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }
static bool is_word_start(char ch) { return is_alpha(ch) || ch == '_'; }
static bool is_word_char(char ch) { return is_word_start(ch) || is_digit(ch) || ch == '.'; }
static char lower(char ch) { return ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch; }

static int hex_digit(char ch)
{
	if (is_digit(ch))
		return ch - '0';
	ch = lower(ch);
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

void arch_cursor_init(arch_cursor *c, arch_ctx *ctx, const char *arch, const char *text)
{
	c->ctx = ctx;
	c->arch = arch;
	c->text = text;
	c->p = text;
}

void arch_cursor_skip_space(arch_cursor *c)
{
	while (is_blank(*c->p))
		c->p++;
}

bool arch_cursor_at_end(arch_cursor *c)
{
	arch_cursor_skip_space(c);
	return *c->p == '\0';
}

bool arch_cursor_accept(arch_cursor *c, char ch)
{
	arch_cursor_skip_space(c);
	if (*c->p != ch)
		return false;
	c->p++;
	return true;
}

size_t arch_cursor_word(arch_cursor *c, char *buf, const char **start)
{
	arch_cursor_skip_space(c);
	const char *s = c->p, *q = s;
	if (start)
		*start = s;
	buf[0] = '\0';
	if (*q == '%')
		q++;
	if (!is_word_start(*q))
		return 0;
	while (is_word_char(*q))
		q++;
	size_t n = (size_t)(q - s);
	if (n >= ARCH_WORD_MAX)
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	c->p = q;
	return n;
}

bool arch_cursor_number(arch_cursor *c, int64_t *out, bool *ok)
{
	arch_cursor_skip_space(c);
	const char *s = c->p, *q = s;
	bool negative = false;
	*ok = true;
	if (*q == '-' || *q == '+') {
		negative = *q == '-';
		q++;
	}
	if (!is_digit(*q))
		return false;
	/* Accumulate the magnitude as unsigned so INT64_MIN is representable. */
	uint64_t mag = 0, limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	unsigned base = 10;
	if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		base = 16;
		q += 2;
		if (hex_digit(*q) < 0) {
			*ok = false;
			return arch_malformed(c, s, "hex number without digits");
		}
	}
	for (;;) {
		int d = base == 16 ? hex_digit(*q) : (is_digit(*q) ? *q - '0' : -1);
		if (d < 0)
			break;
		if (mag > (limit - (uint64_t)d) / base) {
			*ok = false;
			return arch_malformed(c, s, "number out of range");
		}
		mag = mag * base + (uint64_t)d;
		q++;
	}
	if (is_word_char(*q)) {
		*ok = false;
		return arch_malformed(c, s, "malformed number");
	}
	if (negative)
		*out = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
	else
		*out = (int64_t)mag;
	c->p = q;
	return true;
}

srcloc arch_cursor_loc(const arch_cursor *c, const char *at)
{
	srcloc loc = c->ctx->loc;
	if (loc.line > 0 && at >= c->text)
		loc.col += (int)(at - c->text);
	return loc;
}

bool arch_unsupported(arch_cursor *c)
{
	diag_error(c->ctx->d, c->ctx->loc, "unsupported %s instruction '%s'", c->arch, c->text);
	return false;
}

bool arch_malformed(arch_cursor *c, const char *at, const char *fmt, ...)
{
	char why[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	diag_error(c->ctx->d, arch_cursor_loc(c, at ? at : c->p),
		   "malformed %s instruction '%s': %s", c->arch, c->text, why);
	return false;
}

bool arch_expect_end(arch_cursor *c)
{
	if (arch_cursor_at_end(c))
		return true;
	return arch_malformed(c, c->p, "unexpected '%s'", c->p);
}

bool arch_expect(arch_cursor *c, char ch)
{
	if (arch_cursor_accept(c, ch))
		return true;
	if (*c->p == '\0')
		return arch_malformed(c, c->p, "expected '%c' at end", ch);
	return arch_malformed(c, c->p, "expected '%c'", ch);
}

bool arch_word_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (lower(*a) != lower(*b))
			return false;
	return *a == *b;
}

bool arch_read_immediate(arch_cursor *c, value *out)
{
	int64_t n;
	bool ok;
	if (arch_cursor_number(c, &n, &ok)) {
		*out = value_int(n);
		return true;
	}
	if (!ok)
		return false;
	char name[ARCH_WORD_MAX];
	const char *at;
	if (arch_cursor_word(c, name, &at) == 0 || name[0] == '%')
		return arch_malformed(c, at, "expected a number or a location name");
	*out = value_addr(arch_loc(c->ctx, name));
	return true;
}

/* ---- emitting ops ------------------------------------------------------- */

/* A fresh op with every operand field in its "absent" state, so each
 * emitter only sets what its kind uses. */
static op *new_op(arch_ctx *ctx, enum op_kind kind)
{
	op *o = arch_add_op(ctx, kind);
	o->dst = -1;
	o->a = o->b = arch_opnd_none();
	o->alu = ALU_MOV;
	o->addr = arch_address(arch_opnd_none(), arch_opnd_none(), 0);
	o->size = 0;
	o->flags = 0;
	o->fence = NULL;
	return o;
}

void arch_emit_alu(arch_ctx *ctx, enum alu_op alu, int dst, operand a, operand b)
{
	op *o = new_op(ctx, OP_ALU);
	o->alu = alu;
	o->dst = dst;
	o->a = a;
	o->b = b;
}

void arch_emit_load(arch_ctx *ctx, int dst, address addr, int size, unsigned flags)
{
	op *o = new_op(ctx, OP_LOAD);
	o->dst = dst;
	o->addr = addr;
	o->size = size;
	o->flags = flags;
}

void arch_emit_store(arch_ctx *ctx, address addr, operand data, int size, unsigned flags)
{
	op *o = new_op(ctx, OP_STORE);
	o->addr = addr;
	o->a = data;
	o->size = size;
	o->flags = flags;
}

void arch_emit_stcond(arch_ctx *ctx, int dst, address addr, operand data, int size,
		      unsigned flags)
{
	op *o = new_op(ctx, OP_STCOND);
	o->dst = dst;
	o->addr = addr;
	o->a = data;
	o->size = size;
	o->flags = flags;
}

void arch_emit_fence(arch_ctx *ctx, const char *fence)
{
	op *o = new_op(ctx, OP_FENCE);
	o->fence = fence;
}

int arch_reg_number(const char *s, int max)
{
	if (s[0] < '0' || s[0] > '9' || (s[0] == '0' && s[1] != '\0'))
		return -1;
	int n = 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		n = n * 10 + (*s - '0');
		if (n > max)
			return -1;
	}
	return n;
}

bool arch_symbolic_reg(const char *name)
{
	if (name[0] != '%')
		return false;
	const char *s = name + 1;
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
		      (*s >= '0' && *s <= '9')))
			return false;
	return true;
}
