/*
 * hddscope sim import: DiskSim 4.0 parameter files (.parv, .diskspecs, the
 * .model and seek-curve files they name) read into a drive model text
 * (format 1, data/drives/README.md "Importing DiskSim models").
 *
 * The reading is in two steps: a parser of DiskSim's parameter syntax
 * (blocks "TYPE NAME { Name = value, ... }", nested blocks, lists
 * "[ a, b ]", "source FILE" anywhere a token may stand, "instantiate [ ..
 * ] as NAME", "topology ...", '#' comments) into a tree, then the one
 * table of what each DiskSim parameter becomes (import_table below), which
 * the README documents row by row.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/fsutil.h"
#include "hddscope/sim.h"
#include "hddscope/sim_import.h"
#include "hddscope/util.h"

/* The bounds of an input file, as for a .drive (a seek curve of 10^5 points fits). */
#define IMP_MAX_LINE 4095
#define IMP_MAX_FILE (16u << 20)
#define IMP_MAX_DEPTH 16		/* nested "source" files */
#define IMP_MAX_NEST 64			/* nested blocks and lists */

/* ---- the tree ---- */

enum vkind { V_WORD, V_LIST, V_BLOCK };

struct dsval;

struct dslist {
	struct dsval *v;
	size_t n, cap;
};

struct dsparam;

struct dsblock {
	char *type, *name;		/* name NULL for a block value without one */
	struct dsparam *p;
	size_t n, cap;
	const char *file;
	unsigned line;
};

struct dsval {
	enum vkind k;
	const char *file;
	unsigned line;
	char *word;			/* V_WORD */
	struct dslist *list;		/* V_LIST */
	struct dsblock *block;		/* V_BLOCK */
};

struct dsparam {
	char *name;			/* words joined by single spaces */
	struct dsval v;
	int used;			/* the table expressed it */
};

/* A topology node: "TYPE NAME [ children ]". */
struct dstopo {
	char *type, *name;
	struct dstopo *kids;
	size_t n, cap;
};

struct dsinst {
	char **names;			/* instance names */
	size_t n;
	char *as;			/* the block they instantiate */
};

/* ---- the lexer ---- */

enum tk { T_EOF, T_WORD, T_LBRACE, T_RBRACE, T_LBRAK, T_RBRAK, T_COMMA, T_EQUAL, T_OTHER };

struct token {
	enum tk t;
	char *s;			/* T_WORD: malloc'd */
	const char *file;
	unsigned line;
};

struct srcfile {
	char *text;
	size_t len, pos;
	const char *name;		/* owned by the lexer's file list */
	unsigned line;
};

struct imp {
	struct srcfile stack[IMP_MAX_DEPTH];
	int depth;
	char **files;			/* every file read, for messages; freed at the end */
	size_t nfiles;
	struct token la[2];		/* lookahead */
	int nla;
	char *err;
	size_t errlen;
	int nest;
	/* what the top file defines */
	struct dsblock **blocks;
	size_t nblocks, bcap;
	struct dsinst *insts;
	size_t ninsts, icap;
	struct dstopo topo;		/* children: the topology's roots */
	const char *eof_file;		/* where the top file ended, for "the end of the file" */
	unsigned eof_line;
};

static int ierr(struct imp *im, const char *file, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int ierr(struct imp *im, const char *file, unsigned line, const char *fmt, ...)
{
	va_list ap;
	int n = line ? snprintf(im->err, im->errlen, "%s:%u: ", file, line)
		     : snprintf(im->err, im->errlen, "%s: ", file);

	if (n >= 0 && (size_t)n < im->errlen) {
		va_start(ap, fmt);
		vsnprintf(im->err + n, im->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int nomem(struct imp *im)
{
	snprintf(im->err, im->errlen, "out of memory");
	return -ENOMEM;
}

/* Grow an array of elem-byte items to hold n + 1. */
static int grow(struct imp *im, void **arr, size_t *cap, size_t n, size_t elem)
{
	void *na;
	size_t nc;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 8;
	na = realloc(*arr, nc * elem);
	if (!na)
		return nomem(im);
	*arr = na;
	*cap = nc;
	return 0;
}

static char *xstrdup(struct imp *im, const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (!d) {
		nomem(im);
		return NULL;
	}
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* path as named from inside file from: relative to from's directory. */
static char *resolve(struct imp *im, const char *from, const char *path)
{
	const char *slash = from ? strrchr(from, '/') : NULL;
	size_t dl = slash ? (size_t)(slash - from) + 1 : 0, pl = strlen(path);
	char *r;

	if (path[0] == '/' || !dl)
		return xstrdup(im, path, pl);
	if (!(r = malloc(dl + pl + 1))) {
		nomem(im);
		return NULL;
	}
	memcpy(r, from, dl);
	memcpy(r + dl, path, pl + 1);
	return r;
}

/*
 * Read a whole input file by the input rules (a regular file, bounded
 * lines and size, no NUL).  The name is kept for messages.  *name gets the
 * lexer's copy.
 */
static int read_input(struct imp *im, char *path, char **text, size_t *len, const char **name)
{
	struct hd_lines l;
	FILE *f;
	int rc;

	{
		char **nf = realloc(im->files, (im->nfiles + 1) * sizeof(*nf));

		if (!nf) {
			free(path);
			return nomem(im);
		}
		im->files = nf;
		im->files[im->nfiles++] = path;
		*name = path;
	}
	if ((rc = hd_in_open(path, &f))) {
		hd_in_strerror(im->err, im->errlen, path, rc);
		return rc;
	}
	rc = hd_lines_init(&l, f, IMP_MAX_LINE);
	if (!rc)
		rc = hd_lines_slurp(&l, IMP_MAX_FILE, text, len);
	if (rc)
		hd_lines_strerror(im->err, im->errlen, &l, path, rc);
	hd_lines_free(&l);
	fclose(f);
	return rc == -HD_ELONGLINE || rc == -HD_ENUL ? -EINVAL : rc;
}

static int push_file(struct imp *im, char *path, const char *from, unsigned line)
{
	struct srcfile *s;
	int rc;

	if (im->depth == IMP_MAX_DEPTH) {
		free(path);
		return ierr(im, from, line, "source: files nested more than %d deep", IMP_MAX_DEPTH);
	}
	s = &im->stack[im->depth];
	memset(s, 0, sizeof(*s));
	if ((rc = read_input(im, path, &s->text, &s->len, &s->name)))
		return rc;
	s->line = 1;
	im->depth++;
	return 0;
}

static int is_word_char(int c)
{
	return c && !strchr(" \t\n\f\r\v;{},[]:?=", c);
}

/* The next token of the files, following "source FILE". */
static int lex(struct imp *im, struct token *t)
{
	for (;;) {
		struct srcfile *s;
		size_t b;
		int rc;

		if (!im->depth) {
			t->t = T_EOF;
			t->file = im->eof_file ? im->eof_file : "";
			t->line = im->eof_line;
			t->s = NULL;
			return 0;
		}
		s = &im->stack[im->depth - 1];
		while (s->pos < s->len && strchr(" \t\n\f\r\v", s->text[s->pos]))
			if (s->text[s->pos++] == '\n')
				s->line++;
		if (s->pos < s->len && s->text[s->pos] == '#') {
			while (s->pos < s->len && s->text[s->pos] != '\n')
				s->pos++;
			continue;
		}
		if (s->pos >= s->len) {
			if (im->depth == 1) {
				im->eof_file = s->name;
				/* The last line: the one a final newline ended. */
				im->eof_line = s->line > 1 && s->len && s->text[s->len - 1] == '\n' ? s->line - 1 : s->line;
			}
			free(s->text);
			im->depth--;
			continue;
		}
		t->file = s->name;
		t->line = s->line;
		t->s = NULL;
		switch (s->text[s->pos]) {
		case '{': t->t = T_LBRACE; s->pos++; return 0;
		case '}': t->t = T_RBRACE; s->pos++; return 0;
		case '[': t->t = T_LBRAK; s->pos++; return 0;
		case ']': t->t = T_RBRAK; s->pos++; return 0;
		case ',': t->t = T_COMMA; s->pos++; return 0;
		case '=': t->t = T_EQUAL; s->pos++; return 0;
		default: break;
		}
		if (!is_word_char((unsigned char)s->text[s->pos])) {
			t->t = T_OTHER;
			s->pos++;
			return 0;
		}
		b = s->pos;
		while (s->pos < s->len && is_word_char((unsigned char)s->text[s->pos]))
			s->pos++;
		if (s->pos - b == 6 && memcmp(s->text + b, "source", 6) == 0) {
			char *name, *path;
			unsigned line = s->line;

			while (s->pos < s->len && strchr(" \t\f\r\v", s->text[s->pos]))
				s->pos++;
			b = s->pos;
			while (s->pos < s->len && is_word_char((unsigned char)s->text[s->pos]))
				s->pos++;
			if (s->pos == b)
				return ierr(im, s->name, line, "source: missing the file name");
			if (!(name = xstrdup(im, s->text + b, s->pos - b)))
				return -ENOMEM;
			path = resolve(im, s->name, name);
			free(name);
			if (!path)
				return -ENOMEM;
			if ((rc = push_file(im, path, s->name, line)))
				return rc;
			continue;
		}
		t->t = T_WORD;
		if (!(t->s = xstrdup(im, s->text + b, s->pos - b)))
			return -ENOMEM;
		return 0;
	}
}

static int peek(struct imp *im, int k, struct token **t)
{
	int rc;

	while (im->nla <= k) {
		if ((rc = lex(im, &im->la[im->nla])))
			return rc;
		im->nla++;
	}
	*t = &im->la[k];
	return 0;
}

/* The next token; a word's text passes to the caller. */
static int next(struct imp *im, struct token *t)
{
	struct token *p;
	int rc = peek(im, 0, &p);

	if (rc)
		return rc;
	*t = *p;
	im->la[0] = im->la[1];
	im->nla--;
	return 0;
}

static const char *tkname(const struct token *t)
{
	static const char *const names[] = { "the end of the file", "a word", "'{'", "'}'", "'['", "']'",
					     "','", "'='", "an unexpected character" };

	return names[t->t];
}

static int expect(struct imp *im, enum tk want, const char *what, struct token *t)
{
	int rc = next(im, t);

	if (rc)
		return rc;
	if (t->t != want) {
		free(t->s);
		return ierr(im, t->file, t->line, "expected %s, found %s", what, tkname(t));
	}
	return 0;
}

/* ---- the parser ---- */

static void free_val(struct dsval *v);

static void free_block(struct dsblock *b)
{
	size_t i;

	if (!b)
		return;
	for (i = 0; i < b->n; i++) {
		free(b->p[i].name);
		free_val(&b->p[i].v);
	}
	free(b->p);
	free(b->type);
	free(b->name);
	free(b);
}

static void free_val(struct dsval *v)
{
	size_t i;

	free(v->word);
	if (v->list) {
		for (i = 0; i < v->list->n; i++)
			free_val(&v->list->v[i]);
		free(v->list->v);
		free(v->list);
	}
	free_block(v->block);
}

static void free_topo(struct dstopo *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free_topo(&t->kids[i]);
	free(t->kids);
	free(t->type);
	free(t->name);
}

static int parse_value(struct imp *im, struct dsval *v);

/* "a3 .. a7" in a list: a3, a4, a5, a6, a7 (DiskSim's ranges of names). */
static int expand_range(struct imp *im, struct dslist *l)
{
	struct token t, e;
	const char *a = l->v[l->n - 1].word, *da, *db;
	const char *file = l->v[l->n - 1].file;
	unsigned line = l->v[l->n - 1].line;
	unsigned long lo, hi, k;
	int rc;

	if ((rc = next(im, &t)))
		return rc;
	free(t.s);
	if ((rc = expect(im, T_WORD, "the end of a range", &e)))
		return rc;
	for (da = a + strlen(a); da > a && da[-1] >= '0' && da[-1] <= '9'; da--)
		;
	for (db = e.s + strlen(e.s); db > e.s && db[-1] >= '0' && db[-1] <= '9'; db--)
		;
	lo = strtoul(da, NULL, 10);
	hi = strtoul(db, NULL, 10);
	if (!*da || !*db || da - a != db - e.s || strncmp(a, e.s, (size_t)(da - a)) != 0 || hi < lo ||
	    hi - lo > 100000) {
		free(e.s);
		return ierr(im, file, line, "a range of names: expected NAME<i> .. NAME<j> with i <= j");
	}
	{
		char pre[100];
		size_t pl = (size_t)(da - a);

		if (pl >= sizeof(pre)) {
			free(e.s);
			return ierr(im, file, line, "a range of names: the name is too long");
		}
		memcpy(pre, a, pl);
		pre[pl] = '\0';
		for (k = lo + 1; k <= hi && !rc; k++) {
			char buf[128];
			struct dsval *v;

			snprintf(buf, sizeof(buf), "%s%lu", pre, k);
			if ((rc = grow(im, (void **)&l->v, &l->cap, l->n, sizeof(*l->v))))
				break;
			v = &l->v[l->n];
			memset(v, 0, sizeof(*v));
			v->k = V_WORD;
			v->file = file;
			v->line = line;
			if (!(v->word = xstrdup(im, buf, strlen(buf))))
				rc = -ENOMEM;
			else
				l->n++;
		}
	}
	free(e.s);
	return rc;
}

/* After the opening '{': "Name words = value, ..." up to '}'. */
static int parse_params(struct imp *im, struct dsblock *b)
{
	struct token t, *p;
	int rc;

	if ((rc = peek(im, 0, &p)))
		return rc;
	if (p->t == T_RBRACE)
		return next(im, &t);
	for (;;) {
		struct dsparam *pa;
		size_t nl = 0;

		if ((rc = grow(im, (void **)&b->p, &b->cap, b->n, sizeof(*b->p))))
			return rc;
		pa = &b->p[b->n++];
		memset(pa, 0, sizeof(*pa));
		/* The name: words up to '='. */
		for (;;) {
			if ((rc = next(im, &t)))
				return rc;
			if (t.t == T_EQUAL && pa->name)
				break;
			if (t.t != T_WORD)
				return ierr(im, t.file, t.line, "expected a parameter name, found %s", tkname(&t));
			{
				size_t wl = strlen(t.s);
				char *nn = realloc(pa->name, nl + wl + 2);

				if (!nn) {
					free(t.s);
					return nomem(im);
				}
				if (nl)
					nn[nl++] = ' ';
				memcpy(nn + nl, t.s, wl + 1);
				nl += wl;
				pa->name = nn;
				free(t.s);
			}
		}
		if ((rc = parse_value(im, &pa->v)))
			return rc;
		if ((rc = next(im, &t)))
			return rc;
		if (t.t == T_RBRACE)
			return 0;
		if (t.t != T_COMMA) {
			free(t.s);
			return ierr(im, t.file, t.line, "expected ',' or '}' after '%s', found %s", pa->name,
				    tkname(&t));
		}
		/* A ',' before the '}' is let pass. */
		if ((rc = peek(im, 0, &p)))
			return rc;
		if (p->t == T_RBRACE)
			return next(im, &t);
	}
}

/* "TYPE [NAME] {" has been read up to the '{'. */
static int parse_block_body(struct imp *im, struct dsblock *b)
{
	int rc;

	if (++im->nest > IMP_MAX_NEST)
		return ierr(im, b->file, b->line, "blocks and lists nested more than %d deep", IMP_MAX_NEST);
	rc = parse_params(im, b);
	im->nest--;
	return rc;
}

static int parse_list(struct imp *im, struct dslist *l)
{
	struct token t, *p;
	int rc;

	if (++im->nest > IMP_MAX_NEST)
		return ierr(im, "", 0, "blocks and lists nested more than %d deep", IMP_MAX_NEST);
	if ((rc = peek(im, 0, &p)))
		return rc;
	if (p->t == T_RBRAK) {
		im->nest--;
		return next(im, &t);
	}
	for (;;) {
		if ((rc = grow(im, (void **)&l->v, &l->cap, l->n, sizeof(*l->v))))
			return rc;
		memset(&l->v[l->n], 0, sizeof(l->v[0]));
		if ((rc = parse_value(im, &l->v[l->n++])))
			return rc;
		if (l->v[l->n - 1].k == V_WORD) {
			if ((rc = peek(im, 0, &p)))
				return rc;
			if (p->t == T_WORD && strcmp(p->s, "..") == 0 && (rc = expand_range(im, l)))
				return rc;
		}
		if ((rc = next(im, &t)))
			return rc;
		if (t.t == T_RBRAK)
			break;
		if (t.t != T_COMMA) {
			free(t.s);
			return ierr(im, t.file, t.line, "expected ',' or ']' in a list, found %s", tkname(&t));
		}
	}
	im->nest--;
	return 0;
}

/* A value: a word, a list, or a block "TYPE [NAME] { ... }". */
static int parse_value(struct imp *im, struct dsval *v)
{
	struct token t, *p, *q = NULL;
	int rc;

	if ((rc = next(im, &t)))
		return rc;
	v->file = t.file;
	v->line = t.line;
	if (t.t == T_LBRAK) {
		v->k = V_LIST;
		if (!(v->list = calloc(1, sizeof(*v->list))))
			return nomem(im);
		return parse_list(im, v->list);
	}
	if (t.t != T_WORD)
		return ierr(im, t.file, t.line, "expected a value, found %s", tkname(&t));
	if ((rc = peek(im, 0, &p)) || (p->t == T_WORD && (rc = peek(im, 1, &q)))) {
		free(t.s);
		return rc;
	}
	if (p->t != T_LBRACE && !(p->t == T_WORD && q->t == T_LBRACE)) {
		v->k = V_WORD;
		v->word = t.s;
		return 0;
	}
	v->k = V_BLOCK;
	if (!(v->block = calloc(1, sizeof(*v->block)))) {
		free(t.s);
		return nomem(im);
	}
	v->block->type = t.s;
	v->block->file = t.file;
	v->block->line = t.line;
	if (p->t == T_WORD) {
		if ((rc = next(im, &t)))
			return rc;
		v->block->name = t.s;
	}
	if ((rc = next(im, &t)))
		return rc;
	return parse_block_body(im, v->block);
}

/* "instantiate [ NAMES ] as BLOCK": a name "a .. b" stands for a range like a0 .. a9. */
static int parse_instantiate(struct imp *im, const struct token *kw)
{
	struct dsval v = { 0 };
	struct dsinst *in;
	struct token t;
	size_t i;
	int rc;

	if ((rc = expect(im, T_LBRAK, "'[' after instantiate", &t)))
		return rc;
	v.k = V_LIST;
	if (!(v.list = calloc(1, sizeof(*v.list))))
		return nomem(im);
	if ((rc = parse_list(im, v.list)) || (rc = expect(im, T_WORD, "'as'", &t))) {
		free_val(&v);
		return rc;
	}
	if (strcmp(t.s, "as") != 0) {
		free(t.s);
		free_val(&v);
		return ierr(im, t.file, t.line, "instantiate: expected 'as'");
	}
	free(t.s);
	if ((rc = expect(im, T_WORD, "the name of what is instantiated", &t)) ||
	    (rc = grow(im, (void **)&im->insts, &im->icap, im->ninsts, sizeof(*im->insts)))) {
		free_val(&v);
		return rc;
	}
	in = &im->insts[im->ninsts++];
	memset(in, 0, sizeof(*in));
	in->as = t.s;
	if (!(in->names = calloc(v.list->n + 1, sizeof(char *)))) {
		free_val(&v);
		return nomem(im);
	}
	for (i = 0; i < v.list->n; i++) {
		if (v.list->v[i].k != V_WORD) {
			free_val(&v);
			return ierr(im, kw->file, kw->line, "instantiate: the list holds something other than names");
		}
		in->names[in->n++] = v.list->v[i].word;
		v.list->v[i].word = NULL;
	}
	free_val(&v);
	return 0;
}

/* "topology TYPE NAME [ TYPE NAME [ ... ], ... ]" into a tree. */
static int parse_topo(struct imp *im, struct dstopo *parent)
{
	struct token t, *p;
	struct dstopo *n;
	int rc;

	if ((rc = grow(im, (void **)&parent->kids, &parent->cap, parent->n, sizeof(*parent->kids))))
		return rc;
	n = &parent->kids[parent->n++];
	memset(n, 0, sizeof(*n));
	if ((rc = expect(im, T_WORD, "a component type", &t)))
		return rc;
	n->type = t.s;
	if ((rc = expect(im, T_WORD, "a component name", &t)))
		return rc;
	n->name = t.s;
	if ((rc = expect(im, T_LBRAK, "'['", &t)))
		return rc;
	if (++im->nest > IMP_MAX_NEST)
		return ierr(im, t.file, t.line, "topology nested more than %d deep", IMP_MAX_NEST);
	for (;;) {
		if ((rc = peek(im, 0, &p)))
			return rc;
		if (p->t == T_RBRAK)
			break;
		if ((rc = parse_topo(im, n)))
			return rc;
		if ((rc = peek(im, 0, &p)))
			return rc;
		if (p->t == T_COMMA && (rc = next(im, &t)))
			return rc;
	}
	im->nest--;
	return next(im, &t);
}

/* The top level: block definitions, instantiations, the topology. */
static int parse_top(struct imp *im)
{
	for (;;) {
		struct token t, n;
		struct dsblock *b;
		int rc;

		if ((rc = next(im, &t)))
			return rc;
		if (t.t == T_EOF)
			return 0;
		if (t.t != T_WORD)
			return ierr(im, t.file, t.line, "expected a block, instantiate or topology, found %s",
				    tkname(&t));
		if (strcmp(t.s, "instantiate") == 0 || strcmp(t.s, "topology") == 0) {
			rc = t.s[0] == 'i' ? parse_instantiate(im, &t) : parse_topo(im, &im->topo);
			free(t.s);
			if (rc)
				return rc;
			continue;
		}
		if ((rc = expect(im, T_WORD, "the block's name after its type", &n))) {
			free(t.s);
			return rc;
		}
		if ((rc = grow(im, (void **)&im->blocks, &im->bcap, im->nblocks, sizeof(*im->blocks))) ||
		    !(b = calloc(1, sizeof(*b)))) {
			free(t.s);
			free(n.s);
			return rc ? rc : nomem(im);
		}
		im->blocks[im->nblocks++] = b;
		b->type = t.s;
		b->name = n.s;
		b->file = t.file;
		b->line = t.line;
		if ((rc = expect(im, T_LBRACE, "'{' after the block's name", &t)) ||
		    (rc = parse_block_body(im, b)))
			return rc;
	}
}

/* ---- the table: what each DiskSim parameter becomes ---- */

/*
 * Block kinds: "disk" (disksim_disk), "model" (its Model, dm_disk),
 * "layout" (dm_layout_g1), "zone" (dm_layout_g1_zone), "mech"
 * (dm_mech_g1), "bus" and "ctlr" (the disk's bus and controller in the
 * .parv's topology).  key: the .drive key(s); "-" when nothing needs
 * expressing (statistics, a hint, a parameter DiskSim does not use for
 * these models); NULL: not expressed, listed in the output as a comment.
 */
static const struct hd_sim_import_row import_table[] = {
	{ "model", "Number of data surfaces", "surfaces", "" },
	{ "model", "Number of cylinders", "-", "the zones give the cylinders" },
	{ "model", "Block count", "-", "the layout gives the capacity, as in DiskSim" },
	{ "model", "Layout Model", "-", "the dm_layout_g1 block below" },
	{ "model", "Mechanical Model", "-", "the dm_mech_g1 block below" },
	{ "layout", "LBN-to-PBN mapping scheme", "-", "0 (normal) only; other values are refused" },
	{ "layout", "Sparing scheme used", "sparing", "0 none, 1 tracks, 2 sectors_per_cylinder, "
	  "3 sectors_per_track, 7 sectors_at_end, 9 sectors_per_zone; others are refused" },
	{ "layout", "Rangesize for sparing", "-", "used by sparing scheme 8 only" },
	{ "layout", "Skew units", "-", "sectors only; revolutions are refused" },
	{ "layout", "Zones", "zone", "one zone line and its zone_* lines per zone" },
	{ "zone", "First cylinder number", "zone", "FIRST_CYL" },
	{ "zone", "Last cylinder number", "zone", "LAST_CYL" },
	{ "zone", "Blocks per track", "zone", "SECTORS_PER_TRACK" },
	{ "zone", "Skew for track switch", "zone", "TRACK_SKEW, whole sectors as DiskSim takes them" },
	{ "zone", "Skew for cylinder switch", "zone", "CYLINDER_SKEW, whole sectors" },
	{ "zone", "Offset of first block", "zone_offset", "whole sectors" },
	{ "zone", "Empty space at zone front", "zone_empty", "" },
	{ "zone", "Number of spares", "zone_spares", "" },
	{ "zone", "slips", "zone_slips", "" },
	{ "zone", "defects", "zone_defects", "pairs DEFECT:REMAP" },
	{ "zone", "Skew units", "-", "sectors only; revolutions are refused" },
	{ "mech", "Rotation speed (in rpms)", "rpm", "" },
	{ "mech", "Percent error in rpms", NULL, "a comment when not 0" },
	{ "mech", "Access time type", "-", "trackSwitchPlusRotation is how hddscope positions; "
	  "another type is listed as not expressed" },
	{ "mech", "Seek type", "seek", "extracted: seek lines; hplplus10: seek_model and seek_first10; "
	  "others are refused" },
	{ "mech", "Full seek curve", "seek", "the curve file's points, verbatim" },
	{ "mech", "HPL seek equation values", "seek_model", "V1..V5 as KNEE A B C E: A + B*sqrt(d) "
	  "below V1, else C + E*d; V6 is not used by hplplus10" },
	{ "mech", "First ten seek times", "seek_first10", "" },
	{ "mech", "Single cylinder seek time", "-", "not used by the extracted and hplplus10 seek types" },
	{ "mech", "Average seek time", "-", "not used by the extracted and hplplus10 seek types" },
	{ "mech", "Full strobe seek time", "-", "not used by the extracted and hplplus10 seek types" },
	{ "mech", "Head switch time", "head_switch_ms", "" },
	{ "mech", "Add. write settling delay", "write_settle_ms", "with write_settle_on_head_switch = on "
	  "where the engine has it; a negative delay only where write_settle_ms takes one" },
	{ "disk", "Model", "-", "the dm_disk block above" },
	{ "disk", "Per-request overhead time", "request_overhead_ms", "" },
	{ "disk", "Time scale for overheads", "-", "multiplies every overhead as it is imported" },
	{ "disk", "Bulk sector transfer time", "interface_mb_s", "0.512 / T, T the largest block time "
	  "of the disk, its bus and its controller" },
	{ "disk", "Read hit over. after read", "read_hit_overhead_ms", "before the engine's keys: "
	  "cache_hit_overhead_ms" },
	{ "disk", "Read hit over. after write", "read_hit_overhead_ms", "AFTER_WRITE" },
	{ "disk", "Read miss over. after read", "read_miss_overhead_ms", "before the engine's keys: "
	  "read_overhead_ms" },
	{ "disk", "Read miss over. after write", "read_miss_overhead_ms", "AFTER_WRITE" },
	{ "disk", "Write hit over. after read", "write_hit_overhead_ms", "before the engine's keys: "
	  "write_overhead_ms at fast write levels 1 and 2" },
	{ "disk", "Write hit over. after write", "write_hit_overhead_ms", "AFTER_WRITE" },
	{ "disk", "Write miss over. after read", "write_miss_overhead_ms", "before the engine's keys: "
	  "write_overhead_ms at fast write level 0" },
	{ "disk", "Write miss over. after write", "write_miss_overhead_ms", "AFTER_WRITE" },
	{ "disk", "Read completion overhead", "completion_overhead_ms", "READ" },
	{ "disk", "Write completion overhead", "completion_overhead_ms", "WRITE" },
	{ "disk", "Data preparation overhead", "data_prep_overhead_ms", "" },
	{ "disk", "First reselect overhead", "reselect_overhead_ms", "" },
	{ "disk", "Never disconnect", "read_watermark", "1: never" },
	{ "disk", "Hold bus entire read xfer", "read_watermark", "1; at 0 (a reconnection for each piece "
	  "of the transfer) read_watermark is left out and this parameter and the water mark are listed "
	  "as not expressed" },
	{ "disk", "High (read) water mark", "read_watermark", "FRACTION" },
	{ "disk", "Set watermark by reqsize", "read_watermark", "1: FRACTION alone (request), 0: FRACTION segment" },
	{ "disk", "Read disconnect afterread", "read_disconnect_overhead_ms", "" },
	{ "disk", "Read disconnect afterwrite", "read_disconnect_overhead_ms", "AFTER_WRITE" },
	{ "disk", "Write disconnect overhead", "write_disconnect_overhead_ms", "" },
	{ "disk", "Other reselect overhead", "reselect_other_overhead_ms", "" },
	{ "disk", "Extra write disconnect", "extra_write_disconnect_ms", "1: the key with the five "
	  "Extradisc values; 0: no key" },
	{ "disk", "Extradisc command overhead", "extra_write_disconnect_ms", "COMMAND" },
	{ "disk", "Extradisc disconnect overhead", "extra_write_disconnect_ms", "DISCONNECT" },
	{ "disk", "Extradisc inter-disconnect delay", "extra_write_disconnect_ms", "INTER" },
	{ "disk", "Extradisc 2nd disconnect overhead", "extra_write_disconnect_ms", "DISCONNECT2" },
	{ "disk", "Extradisc seek delta", "extra_write_disconnect_ms", "SEEK_DELTA" },
	{ "disk", "Minimum seek delay", "min_write_seek_ms", "DiskSim applies it to writes only" },
	{ "disk", "Calc sector by sector", "-", "DiskSim 4.0 reads it and never uses it" },
	{ "disk", "Number of buffer segments", "cache_segments", "" },
	{ "disk", "Segment size (in blks)", "cache_segment_blocks", "before the engine's keys: "
	  "cache_segment_kb" },
	{ "disk", "Enable caching in buffer", "cache_segment_kb", "0: no read cache" },
	{ "disk", "Maximum number of write segments", "write_segments", "" },
	{ "disk", "Use separate write segment", "separate_write_segment", "" },
	{ "disk", "Buffer continuous read", "readahead", "0 off, 1 track, 2 cylinder, 3 segment, 4 stream" },
	{ "disk", "Minimum read-ahead (blks)", "readahead_min_blocks", "" },
	{ "disk", "Maximum read-ahead (blks)", "readahead_max_blocks", "0: the segment size" },
	{ "disk", "Read-ahead over requested", "readahead_over_requested", "0 with a maximum read-ahead of 0 "
	  "and read-ahead 1 to 3 (DiskSim keeps the request's data): off; else on" },
	{ "disk", "Allow almost read hits", "readahead_join", "0 off, 1 next" },
	{ "disk", "Immed transfer partial hit", "read_partial_hits", "" },
	{ "disk", "Read-ahead on idle hit", "readahead_on_hit", "" },
	{ "disk", "Stop prefetch in sector", "readahead_stop_in_sector", "" },
	{ "disk", "Read any free blocks", "read_any_free_blocks", "" },
	{ "disk", "Fast write level", "write_cache", "0 off, 1 append, 2 flush; before the engine's "
	  "keys only level 0 is expressed" },
	{ "disk", "Max queue length", "queue_depth", "1 when the scheduler serves in arrival order" },
	{ "disk", "Scheduler", "queue_depth", "Scheduling policy 1 (FCFS): queue_depth = 1; the rest of "
	  "the block is not expressed" },
	{ "disk", "Print stats", "-", "statistics" },
	{ "disk", "Avg sectors per cylinder", "-", "a hint for DiskSim's own use" },
	{ "bus", "Read block transfer time", "interface_mb_s", "see Bulk sector transfer time" },
	{ "bus", "Write block transfer time", "interface_mb_s", "see Bulk sector transfer time" },
	{ "ctlr", "Bulk sector transfer time", "interface_mb_s", "see the disk's" },
	{ "ctlr", "Scale for delays", NULL, "a comment when not 0" },
};

const struct hd_sim_import_row *hd_sim_import_table(size_t *n)
{
	*n = sizeof(import_table) / sizeof(import_table[0]);
	return import_table;
}

static const struct hd_sim_import_row *row_of(const char *kind, const char *param)
{
	size_t i;

	for (i = 0; i < sizeof(import_table) / sizeof(import_table[0]); i++)
		if (strcmp(import_table[i].block, kind) == 0 && strcmp(import_table[i].param, param) == 0)
			return &import_table[i];
	return NULL;
}

/* ---- the output ---- */

struct out {
	char *buf;
	size_t len, cap;
	int oom;
};

static void outf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void outf(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(o->buf ? o->buf + o->len : NULL, o->buf ? o->cap - o->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			o->oom = 1;
			return;
		}
		if (o->buf && o->len + (size_t)n < o->cap) {
			o->len += (size_t)n;
			return;
		}
		{
			size_t nc = (o->cap ? o->cap * 2 : 4096) + (size_t)n;
			char *nb = realloc(o->buf, nc);

			if (!nb) {
				o->oom = 1;
				return;
			}
			o->buf = nb;
			o->cap = nc;
		}
	}
}

/* ---- reading the tree ---- */

struct ctx {
	struct imp *im;
	struct out *o;
	int engine;			/* the model parser has the engine's keys */
	struct out notes;		/* "# not expressed" lines, at the end */
	double min_seek;		/* the shortest seek of the curve (ms), for the head switch */
	long long surfaces, scheme;	/* the model's, for the zones */
};

/* The parameter name of block b (of kind) given by the table; marked used. */
static struct dsparam *param(struct ctx *c, struct dsblock *b, const char *kind, const char *name)
{
	size_t i;

	if (!row_of(kind, name)) {
		/* A parameter the code uses must be in the table that documents it. */
		ierr(c->im, b->file, b->line, "internal: %s parameter '%s' missing from the table", kind, name);
		return NULL;
	}
	for (i = 0; i < b->n; i++)
		if (strcmp(b->p[i].name, name) == 0) {
			b->p[i].used = 1;
			return &b->p[i];
		}
	return NULL;
}

static int num_of(struct ctx *c, const struct dsparam *p, double *v)
{
	char *end;

	if (p->v.k != V_WORD)
		return ierr(c->im, p->v.file, p->v.line, "%s: expected a number", p->name);
	*v = strtod(p->v.word, &end);
	if (end == p->v.word || *end || !isfinite(*v))
		return ierr(c->im, p->v.file, p->v.line, "%s: '%s' is not a number", p->name, p->v.word);
	return 0;
}

/* A number parameter: required, or def when absent. */
static int get_num(struct ctx *c, struct dsblock *b, const char *kind, const char *name, int required,
		   double def, double *v)
{
	struct dsparam *p = param(c, b, kind, name);

	if (!p) {
		if (c->im->err[0])
			return -EINVAL;
		if (required)
			return ierr(c->im, b->file, b->line, "%s %s: missing '%s'", b->type, b->name ? b->name : "",
				    name);
		*v = def;
		return 0;
	}
	return num_of(c, p, v);
}

/* A whole number in [lo, hi]. */
static int get_int(struct ctx *c, struct dsblock *b, const char *kind, const char *name, int required,
		   double def, double lo, double hi, long long *v)
{
	double d;
	int rc = get_num(c, b, kind, name, required, def, &d);
	struct dsparam *p;

	if (rc)
		return rc;
	if (d != floor(d) || d < lo || d > hi) {
		p = param(c, b, kind, name);
		return ierr(c->im, p ? p->v.file : b->file, p ? p->v.line : b->line,
			    "%s: %g is not a whole number from %.0f to %.0f", name, d, lo, hi);
	}
	*v = (long long)d;
	return 0;
}

static int get_block(struct ctx *c, struct dsblock *b, const char *kind, const char *name,
		     const char *type, struct dsblock **out)
{
	struct dsparam *p = param(c, b, kind, name);

	if (!p)
		return c->im->err[0] ? -EINVAL
				     : ierr(c->im, b->file, b->line, "%s: missing '%s'", b->type, name);
	if (p->v.k != V_BLOCK || (type && strcmp(p->v.block->type, type) != 0))
		return ierr(c->im, p->v.file, p->v.line, "%s: expected a%s%s block", name, type ? " " : "",
			    type ? type : "");
	*out = p->v.block;
	return 0;
}

/* A value as DiskSim's file has it, for a comment. */
static void put_val(struct out *o, const struct dsval *v)
{
	size_t i;

	switch (v->k) {
	case V_WORD:
		outf(o, "%s", v->word);
		break;
	case V_LIST:
		outf(o, "[");
		for (i = 0; i < v->list->n; i++) {
			outf(o, i ? ", " : " ");
			put_val(o, &v->list->v[i]);
		}
		outf(o, " ]");
		break;
	case V_BLOCK:
		outf(o, "%s { ... }", v->block->type);
		break;
	}
}

/* The "# not expressed" comments for every parameter of b the table did not use. */
static void unused(struct ctx *c, struct dsblock *b, const char *kind)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		const struct hd_sim_import_row *r = row_of(kind, b->p[i].name);

		if (b->p[i].used || (r && r->key && strcmp(r->key, "-") == 0))
			continue;
		outf(&c->notes, "# not expressed: %s = ", b->p[i].name);
		put_val(&c->notes, &b->p[i].v);
		outf(&c->notes, "\n");
	}
}

static void note(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct ctx *c, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	outf(&c->notes, "# not expressed: %s\n", line);
}

/* ---- layout ---- */

static int sparing_name(struct ctx *c, const struct dsparam *p, long long v, const char **name)
{
	switch (v) {
	case 0: *name = "none"; return 0;
	case 1: *name = "tracks"; return 0;
	case 2: *name = "sectors_per_cylinder"; return 0;
	case 3: *name = "sectors_per_track"; return 0;
	case 7: *name = "sectors_at_end"; return 0;
	case 9: *name = "sectors_per_zone"; return 0;
	default:
		return ierr(c->im, p->v.file, p->v.line, "Sparing scheme used = %lld: not supported "
			    "(0, 1, 2, 3, 7 and 9 are)", v);
	}
}

static int skew_units(struct ctx *c, struct dsblock *b, const char *kind)
{
	struct dsparam *p = param(c, b, kind, "Skew units");

	if (p && !(p->v.k == V_WORD && strcmp(p->v.word, "sectors") == 0))
		return ierr(c->im, p->v.file, p->v.line, "Skew units: only sectors are supported");
	return 0;
}

/* A list of whole numbers as zone_KEY lines of ten values (pairs A:B for defects). */
static int zone_list(struct ctx *c, struct dsblock *z, const char *name, const char *key, int pairs,
		     unsigned long long units)
{
	struct dsparam *p = param(c, z, "zone", name);
	size_t k, j, per = pairs ? 2 : 1, nitems;

	if (!p)
		return c->im->err[0] ? -EINVAL : 0;
	if (p->v.k != V_LIST)
		return ierr(c->im, p->v.file, p->v.line, "%s: expected a list", name);
	if (p->v.list->n % per)
		return ierr(c->im, p->v.file, p->v.line, "%s: an odd number of values (defect, remap pairs)", name);
	nitems = p->v.list->n / per;
	for (k = 0; k < nitems; k++) {
		unsigned long long x[2] = { 0, 0 };

		for (j = 0; j < per; j++) {
			const struct dsval *v = &p->v.list->v[k * per + j];
			char *end = NULL;

			if (v->k == V_WORD && v->word[0] >= '0' && v->word[0] <= '9')
				x[j] = strtoull(v->word, &end, 10);
			if (!end || *end)
				return ierr(c->im, v->file, v->line, "%s: expected whole numbers", name);
			if (x[j] >= units)
				return ierr(c->im, v->file, v->line, "%s: %llu lies beyond the zone's %llu %s", name,
					    x[j], units, c->scheme == 1 ? "tracks" : "sectors");
		}
		if (k % 10 == 0)
			outf(c->o, "%s =", key);
		if (pairs)
			outf(c->o, " %llu:%llu", x[0], x[1]);
		else
			outf(c->o, " %llu", x[0]);
		if (k % 10 == 9 || k + 1 == nitems)
			outf(c->o, "\n");
	}
	return 0;
}

static int one_zone(struct ctx *c, struct dsblock *z)
{
	long long f = 0, l = 0, spt = 1, empty = 0, spares = 0;
	double ts = 0, cs = 0, off = 0;
	unsigned long long units;
	int rc;

	if ((rc = skew_units(c, z, "zone")) ||
	    (rc = get_int(c, z, "zone", "First cylinder number", 1, 0, 0, 16777215, &f)) ||
	    (rc = get_int(c, z, "zone", "Last cylinder number", 1, 0, 0, 16777215, &l)) ||
	    (rc = get_int(c, z, "zone", "Blocks per track", 1, 0, 1, 1000000, &spt)) ||
	    (rc = get_num(c, z, "zone", "Skew for track switch", 0, 0, &ts)) ||
	    (rc = get_num(c, z, "zone", "Skew for cylinder switch", 0, 0, &cs)) ||
	    (rc = get_num(c, z, "zone", "Offset of first block", 0, 0, &off)) ||
	    (rc = get_int(c, z, "zone", "Empty space at zone front", 0, 0, 0, 1e15, &empty)) ||
	    (rc = get_int(c, z, "zone", "Number of spares", 0, 0, 0, 1e15, &spares)))
		return rc;
	if (ts < 0 || cs < 0 || off < 0)
		return ierr(c->im, z->file, z->line, "zone: a negative skew or offset is not supported");
	/* DiskSim takes skews and the offset in whole sectors, (int) of the number given. */
	if (l < f)
		return ierr(c->im, z->file, z->line, "zone: Last cylinder number %lld below First cylinder number %lld",
			    l, f);
	/* Skews act modulo a revolution: DiskSim's angles wrap. */
	outf(c->o, "zone = %lld %lld %lld %lld %lld\n", f, l, spt, (long long)ts % spt, (long long)cs % spt);
	if ((long long)off % spt)
		outf(c->o, "zone_offset = %lld\n", (long long)off % spt);
	if (empty)
		outf(c->o, "zone_empty = %lld\n", empty);
	if (spares)
		outf(c->o, "zone_spares = %lld\n", spares);
	units = (unsigned long long)(l - f + 1) * (unsigned long long)c->surfaces * (c->scheme == 1 ? 1 : spt);
	if ((rc = zone_list(c, z, "slips", "zone_slips", 0, units)) ||
	    (rc = zone_list(c, z, "defects", "zone_defects", 1, units)))
		return rc;
	unused(c, z, "zone");
	return 0;
}

static int layout(struct ctx *c, struct dsblock *lb)
{
	struct dsparam *p;
	const char *name = "none";
	long long v = 0;
	size_t i;
	int rc;

	if (strcmp(lb->type, "dm_layout_g1") != 0)
		return ierr(c->im, lb->file, lb->line, "Layout Model: %s is not supported (dm_layout_g1 is)",
			    lb->type);
	if ((rc = skew_units(c, lb, "layout")) ||
	    (rc = get_int(c, lb, "layout", "LBN-to-PBN mapping scheme", 0, 0, 0, 1e9, &v)))
		return rc;
	if (v != 0) {
		p = param(c, lb, "layout", "LBN-to-PBN mapping scheme");
		return ierr(c->im, p->v.file, p->v.line, "LBN-to-PBN mapping scheme = %lld: not supported (0 is)", v);
	}
	if ((rc = get_int(c, lb, "layout", "Sparing scheme used", 0, 0, 0, 1e9, &v)))
		return rc;
	p = param(c, lb, "layout", "Sparing scheme used");
	if (p && (rc = sparing_name(c, p, v, &name)))
		return rc;
	c->scheme = p ? v : 0;
	param(c, lb, "layout", "Rangesize for sparing");
	outf(c->o, "\n# layout: DiskSim dm_layout_g1, LBN-to-PBN mapping scheme 0, sparing scheme %lld\n", v);
	outf(c->o, "sparing = %s\n", p ? name : "none");
	p = param(c, lb, "layout", "Zones");
	if (!p || p->v.k != V_LIST || !p->v.list->n)
		return ierr(c->im, p ? p->v.file : lb->file, p ? p->v.line : lb->line,
			    "Zones: expected a list of dm_layout_g1_zone blocks");
	for (i = 0; i < p->v.list->n; i++) {
		const struct dsval *z = &p->v.list->v[i];

		if (z->k != V_BLOCK || strcmp(z->block->type, "dm_layout_g1_zone") != 0)
			return ierr(c->im, z->file, z->line, "Zones: expected dm_layout_g1_zone blocks");
		if ((rc = one_zone(c, z->block)))
			return rc;
	}
	unused(c, lb, "layout");
	return 0;
}

/* ---- mechanics ---- */

/* The points of a seek-curve file: "Seek distances measured: N", then "D, MS" lines. */
static int seek_curve(struct ctx *c, const struct dsparam *p)
{
	struct imp *im = c->im;
	char *path, *text, *line, *save = NULL;
	const char *name;
	size_t len;
	unsigned ln = 0, npts = 0;
	int rc;

	if (p->v.k != V_WORD)
		return ierr(im, p->v.file, p->v.line, "Full seek curve: expected a file name");
	if (!(path = resolve(im, p->v.file, p->v.word)))
		return -ENOMEM;
	if ((rc = read_input(im, path, &text, &len, &name)))
		return rc;
	outf(c->o, "\n# seek = DISTANCE_CYLINDERS MS: the extracted seek curve (%s, verbatim)\n", p->v.word);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *a, *b, *e1, *e2, *s2 = NULL;
		double d, t;

		ln++;
		if (strncmp(line, "Seek distances measured:", 24) == 0)
			continue;
		a = strtok_r(line, " \t,", &s2);
		if (!a)
			continue;
		b = strtok_r(NULL, " \t,", &s2);
		d = b ? strtod(a, &e1) : 0;
		t = b ? strtod(b, &e2) : 0;
		if (!b || *e1 || *e2 || d < 0 || d != floor(d) || !(t >= 0) || strtok_r(NULL, " \t,", &s2)) {
			free(text);
			return ierr(im, name, ln, "expected DISTANCE, TIME");
		}
		if (d == 0) {
			if (t != 0)
				note(c, "the seek curve's time %s ms at distance 0 (a seek of 0 costs 0)", b);
			continue;
		}
		outf(c->o, "seek = %s %s\n", a, b);
		if (!npts || t < c->min_seek)
			c->min_seek = t;
		npts++;
	}
	free(text);
	if (!npts)
		return ierr(im, name, ln, "no seek points");
	return 0;
}

/* hplplus10: the HPL equation and the first ten seek times. */
static int seek_hpl(struct ctx *c, struct dsblock *mb)
{
	struct dsparam *h = param(c, mb, "mech", "HPL seek equation values");
	struct dsparam *f = param(c, mb, "mech", "First ten seek times");
	double v[10];
	size_t i;

	if (!h || h->v.k != V_LIST || h->v.list->n != 6)
		return ierr(c->im, h ? h->v.file : mb->file, h ? h->v.line : mb->line,
			    "HPL seek equation values: expected a list of 6 numbers");
	if (!f || f->v.k != V_LIST || f->v.list->n != 10)
		return ierr(c->im, f ? f->v.file : mb->file, f ? f->v.line : mb->line,
			    "First ten seek times: expected a list of 10 numbers");
	for (i = 0; i < 6; i++) {
		struct dsparam q = { h->name, h->v.list->v[i], 0 };
		int rc = num_of(c, &q, &v[i]);

		if (rc)
			return rc;
	}
	outf(c->o, "\n# seek_model = A B KNEE C E from HPL seek equation values V2 V3 V1 V4 V5\n");
	outf(c->o, "seek_model = %s %s %s %s %s\n", h->v.list->v[1].word, h->v.list->v[2].word,
	     h->v.list->v[0].word, h->v.list->v[3].word, h->v.list->v[4].word);
	if (v[5] != -1)
		note(c, "HPL seek equation value V6 = %s (hplplus10 does not use it)", h->v.list->v[5].word);
	for (i = 0; i < 10; i++) {
		struct dsparam q = { f->name, f->v.list->v[i], 0 };
		int rc = num_of(c, &q, &v[i]);

		if (rc)
			return rc;
	}
	outf(c->o, "seek_first10 =");
	c->min_seek = v[0];
	for (i = 0; i < 10; i++) {
		outf(c->o, " %s", f->v.list->v[i].word);
		c->min_seek = fmin(c->min_seek, v[i]);
	}
	outf(c->o, "\n");
	/* The equation's least values beyond 10 cylinders: at 11, and where the line starts. */
	if (v[0] > 11)
		c->min_seek = fmin(c->min_seek, v[1] + v[2] * sqrt(11.0));
	c->min_seek = fmin(c->min_seek, v[3] + v[4] * fmax(11.0, v[0]));
	return 0;
}

static int mech(struct ctx *c, struct dsblock *mb)
{
	struct dsparam *p;
	double hs = 0, ws = 0, pe = 0;
	int rc;

	if (strcmp(mb->type, "dm_mech_g1") != 0)
		return ierr(c->im, mb->file, mb->line, "Mechanical Model: %s is not supported (dm_mech_g1 is)",
			    mb->type);
	p = param(c, mb, "mech", "Seek type");
	if (!p || p->v.k != V_WORD)
		return ierr(c->im, p ? p->v.file : mb->file, p ? p->v.line : mb->line, "Seek type: missing");
	if (strcmp(p->v.word, "extracted") == 0) {
		struct dsparam *fc = param(c, mb, "mech", "Full seek curve");

		if (!fc)
			return ierr(c->im, p->v.file, p->v.line, "Seek type = extracted: missing 'Full seek curve'");
		if ((rc = seek_curve(c, fc)))
			return rc;
	} else if (strcmp(p->v.word, "hplplus10") == 0) {
		if ((rc = seek_hpl(c, mb)))
			return rc;
	} else {
		return ierr(c->im, p->v.file, p->v.line, "Seek type = %s: not supported (extracted and hplplus10 are)",
			    p->v.word);
	}
	param(c, mb, "mech", "Single cylinder seek time");
	param(c, mb, "mech", "Average seek time");
	param(c, mb, "mech", "Full strobe seek time");
	p = param(c, mb, "mech", "Access time type");
	if (p && !(p->v.k == V_WORD && strcmp(p->v.word, "trackSwitchPlusRotation") == 0))
		note(c, "Access time type = %s (hddscope positions as trackSwitchPlusRotation does)",
		     p->v.k == V_WORD ? p->v.word : "?");
	if ((rc = get_num(c, mb, "mech", "Head switch time", 0, 0, &hs)) ||
	    (rc = get_num(c, mb, "mech", "Add. write settling delay", 0, 0, &ws)) ||
	    (rc = get_num(c, mb, "mech", "Percent error in rpms", 0, 0, &pe)))
		return rc;
	outf(c->o, "\n# Head switch time, Add. write settling delay\n");
	outf(c->o, "head_switch_ms = %.6g\n", hs);
	if (c->engine) {
		outf(c->o, "write_settle_ms = %.6g\nwrite_settle_on_head_switch = on\n", ws);
	} else if (ws >= 0) {
		outf(c->o, "write_settle_ms = %.6g\n", ws);
	} else {
		outf(c->o, "write_settle_ms = 0\n");
		note(c, "Add. write settling delay = %.6g (negative)", ws);
	}
	/* DiskSim positions for the longer of the seek and the head switch. */
	if (hs > c->min_seek)
		note(c, "a seek that also switches heads takes at least Head switch time = %.6g, longer than "
		     "the shortest seek (%.6g ms)", hs, c->min_seek);
	if (pe != 0)
		note(c, "Percent error in rpms = %.6g", pe);
	unused(c, mb, "mech");
	return 0;
}

/* ---- the disk: overheads, transfer, cache ---- */

static void on_off(struct ctx *c, const char *key, double v)
{
	outf(c->o, "%s = %s\n", key, v != 0 ? "on" : "off");
}

/* The overheads: per request, read/write hit/miss after read/write, completion. */
static int overheads(struct ctx *c, struct dsblock *d, double fwl)
{
	static const char *const names[8] = {
		"Read miss over. after read", "Read miss over. after write",
		"Read hit over. after read", "Read hit over. after write",
		"Write miss over. after read", "Write miss over. after write",
		"Write hit over. after read", "Write hit over. after write",
	};
	static const char *const keys[4] = { "read_miss_overhead_ms", "read_hit_overhead_ms",
					      "write_miss_overhead_ms", "write_hit_overhead_ms" };
	double v[8], scale = 1, req = 0, rc_ = 0, wc = 0, prep = 0, resel = 0;
	int i, rc, wi = fwl > 0 ? 6 : 4;

	if ((rc = get_num(c, d, "disk", "Time scale for overheads", 0, 1, &scale)) ||
	    (rc = get_num(c, d, "disk", "Per-request overhead time", 0, 0, &req)) ||
	    (rc = get_num(c, d, "disk", "Read completion overhead", 0, 0, &rc_)) ||
	    (rc = get_num(c, d, "disk", "Write completion overhead", 0, 0, &wc)) ||
	    (rc = get_num(c, d, "disk", "Data preparation overhead", 0, 0, &prep)) ||
	    (rc = get_num(c, d, "disk", "First reselect overhead", 0, 0, &resel)))
		return rc;
	for (i = 0; i < 8; i++)
		if ((rc = get_num(c, d, "disk", names[i], 0, 0, &v[i])))
			return rc;
	outf(c->o, "\n# overheads (ms): DiskSim's, times its Time scale for overheads = %.6g\n", scale);
	if (c->engine) {
		outf(c->o, "request_overhead_ms = %.6g\n", req * scale);
		for (i = 0; i < 4; i++)
			outf(c->o, "%s = %.6g %.6g\n", keys[i], v[2 * i] * scale, v[2 * i + 1] * scale);
		outf(c->o, "completion_overhead_ms = %.6g %.6g\n", rc_ * scale, wc * scale);
		outf(c->o, "data_prep_overhead_ms = %.6g\nreselect_overhead_ms = %.6g\n", prep * scale, resel * scale);
		return 0;
	}
	outf(c->o, "read_overhead_ms = %.6g\ncache_hit_overhead_ms = %.6g\nwrite_overhead_ms = %.6g\n",
	     v[0] * scale, v[2] * scale, v[wi] * scale);
	for (i = 0; i < 8; i++)
		if (i != 0 && i != 2 && i != wi)
			note(c, "%s = %.6g", names[i], v[i]);
	if (req != 0)
		note(c, "Per-request overhead time = %.6g", req);
	if (rc_ != 0 || wc != 0)
		note(c, "Read completion overhead = %.6g, Write completion overhead = %.6g", rc_, wc);
	if (prep != 0 || resel != 0)
		note(c, "Data preparation overhead = %.6g, First reselect overhead = %.6g", prep, resel);
	return 0;
}

/* Block transfer times: the largest of the disk's, its bus's and its controller's. */
static int transfer(struct ctx *c, struct dsblock *d, struct dsblock *bus, struct dsblock *ctlr)
{
	double td = 0, br = 0, bw = 0, tc = 0, sd = 0, r, w;
	int rc;

	if ((rc = get_num(c, d, "disk", "Bulk sector transfer time", 0, 0, &td)) ||
	    (bus && (rc = get_num(c, bus, "bus", "Read block transfer time", 0, 0, &br))) ||
	    (bus && (rc = get_num(c, bus, "bus", "Write block transfer time", 0, 0, &bw))) ||
	    (ctlr && (rc = get_num(c, ctlr, "ctlr", "Bulk sector transfer time", 0, 0, &tc))) ||
	    (ctlr && (rc = get_num(c, ctlr, "ctlr", "Scale for delays", 0, 0, &sd))))
		return rc;
	r = fmax(td, fmax(br, tc));
	w = fmax(td, fmax(bw, tc));
	outf(c->o, "\n# interface: 0.512 / the block time (ms): disk %.6g, bus %s %.6g/%.6g, controller %s %.6g\n",
	     td, bus ? bus->name : "-", br, bw, ctlr ? ctlr->name : "-", tc);
	r = r > 0 ? fmax(0.1, fmin(1e6, 0.512 / r)) : 1e6;
	w = w > 0 ? fmax(0.1, fmin(1e6, 0.512 / w)) : 1e6;
	if (c->engine && r != w)
		outf(c->o, "interface_mb_s = %.6g %.6g\n", r, w);
	else
		outf(c->o, "interface_mb_s = %.6g\n", r);
	if (!c->engine && r != w)
		note(c, "a write block time other than the read's (%.6g MB/s)", w);
	if (sd != 0)
		note(c, "controller Scale for delays = %.6g", sd);
	return 0;
}

/* The engine's cache keys; before them, what today's keys say exactly. */
static int cache(struct ctx *c, struct dsblock *d, double fwl)
{
	static const char *const ra[] = { "off", "track", "cylinder", "segment", "stream" };
	double segs = 1, blks = 0, wsegs = 1, sep = 0, bcr = 0, rmin = 0, rmax = 0, over = 0, onhit = 0;
	double anyfree = 0, enable = 1, stop = 0, almost = 0, partial = 0;
	int rc;

	if ((rc = get_num(c, d, "disk", "Number of buffer segments", 0, 1, &segs)) ||
	    (rc = get_num(c, d, "disk", "Segment size (in blks)", 0, 0, &blks)) ||
	    (rc = get_num(c, d, "disk", "Enable caching in buffer", 0, 1, &enable)) ||
	    (rc = get_num(c, d, "disk", "Maximum number of write segments", 0, 1, &wsegs)) ||
	    (rc = get_num(c, d, "disk", "Use separate write segment", 0, 0, &sep)) ||
	    (rc = get_num(c, d, "disk", "Buffer continuous read", 0, 0, &bcr)) ||
	    (rc = get_num(c, d, "disk", "Minimum read-ahead (blks)", 0, 0, &rmin)) ||
	    (rc = get_num(c, d, "disk", "Maximum read-ahead (blks)", 0, 0, &rmax)) ||
	    (rc = get_num(c, d, "disk", "Read-ahead over requested", 0, 0, &over)) ||
	    (rc = get_num(c, d, "disk", "Read-ahead on idle hit", 0, 0, &onhit)) ||
	    (rc = get_num(c, d, "disk", "Read any free blocks", 0, 0, &anyfree)) ||
	    (rc = get_num(c, d, "disk", "Stop prefetch in sector", 0, 0, &stop)) ||
	    (rc = get_num(c, d, "disk", "Allow almost read hits", 0, 0, &almost)) ||
	    (rc = get_num(c, d, "disk", "Immed transfer partial hit", 0, 0, &partial)))
		return rc;
	if (segs < 1 || segs > 256 || segs != floor(segs) || blks < 0 || blks != floor(blks) ||
	    bcr < 0 || bcr > 4 || bcr != floor(bcr) || fwl < 0 || fwl > 2 || fwl != floor(fwl))
		return ierr(c->im, d->file, d->line, "%s: a buffer segment count, segment size, Buffer continuous "
			    "read or Fast write level this import does not support", d->name);
	if (enable == 0)
		blks = 0;
	outf(c->o, "\n# cache: %.0f buffer segments of %.0f blocks, Fast write level %.0f\n", segs, blks, fwl);
	outf(c->o, "cache_segments = %.0f\n", segs);
	if (c->engine) {
		outf(c->o, "cache_segment_blocks = %.0f\nwrite_segments = %.0f\n", blks, wsegs);
		on_off(c, "separate_write_segment", sep);
		/* DiskSim's maximum of 0 reads ahead as far as the segment holds. */
		outf(c->o, "readahead = %s\nreadahead_min_blocks = %.0f\nreadahead_max_blocks = %.0f\n",
		     ra[(int)bcr], rmin, rmax == 0 ? blks : rmax);
		/*
		 * DiskSim keeps the request's data ("keeprequestdata", which
		 * its disk_postpass sets to |value - 1|: at 0) only where the
		 * track, cylinder or segment read-ahead's extent is the segment
		 * (a maximum read-ahead of 0); with a maximum of its own, or
		 * the stream detector (4), it reads on regardless.
		 */
		on_off(c, "readahead_over_requested", bcr >= 1 && bcr <= 3 && over == 0 && rmax == 0 ? 0 : 1);
		on_off(c, "readahead_on_hit", onhit);
		on_off(c, "read_any_free_blocks", anyfree);
		on_off(c, "readahead_stop_in_sector", stop);
		/* Without almost read hits only a read that begins in data already read continues the read-ahead. */
		outf(c->o, "readahead_join = %s\n", almost != 0 ? "next" : "off");
		on_off(c, "read_partial_hits", partial);
		/* In DiskSim every request, a hit too, takes the mechanism on arrival: read-ahead stops or is taken over. */
		outf(c->o, "readahead_preempt = on\n");
		outf(c->o, "write_cache = %s\n", fwl == 0 ? "off" : fwl == 1 ? "append" : "flush");
		return 0;
	}
	outf(c->o, "cache_segment_kb = %.0f\n", floor(blks / 2));
	if (fmod(blks, 2) != 0)
		note(c, "Segment size (in blks) = %.0f, an odd number of blocks", blks);
	outf(c->o, "readahead_kb = 0\nwrite_cache = off\n");
	note(c, "Buffer continuous read = %.0f, Minimum read-ahead (blks) = %.0f, Maximum read-ahead (blks) = %.0f, "
	     "Read-ahead over requested = %.0f, Read-ahead on idle hit = %.0f, Read any free blocks = %.0f",
	     bcr, rmin, rmax, over, onhit, anyfree);
	if (fwl != 0)
		note(c, "Fast write level = %.0f (Maximum number of write segments = %.0f, Use separate write "
		     "segment = %.0f)", fwl, wsegs, sep);
	return 0;
}

static int queue(struct ctx *c, struct dsblock *d)
{
	struct dsparam *s = param(c, d, "disk", "Scheduler");
	double maxq = 1, pol = 1;
	size_t i;
	int rc;

	if ((rc = get_num(c, d, "disk", "Max queue length", 0, 1, &maxq)))
		return rc;
	if (s && s->v.k == V_BLOCK) {
		for (i = 0; i < s->v.block->n; i++)
			if (strcmp(s->v.block->p[i].name, "Scheduling policy") == 0 &&
			    (rc = num_of(c, &s->v.block->p[i], &pol)))
				return rc;
	}
	outf(c->o, "\n# queue: Max queue length %.0f, Scheduling policy %.0f\nqueue_depth = 1\n", maxq, pol);
	if (pol != 1 && maxq > 1)
		note(c, "Scheduling policy = %.0f with Max queue length = %.0f (queue_depth = 1 serves in "
		     "arrival order)", pol, maxq);
	return 0;
}

/*
 * DiskSim's disconnection and reselection: the read water mark, the
 * disconnect overheads, the other reselection, the extra write disconnect
 * and the minimum seek (the engine's keys only).
 */
static int disconnects(struct ctx *c, struct dsblock *d, double scale)
{
	static const char *const xnames[5] = {
		"Extradisc command overhead", "Extradisc disconnect overhead", "Extradisc inter-disconnect delay",
		"Extradisc 2nd disconnect overhead", "Extradisc seek delta",
	};
	double never = 0, hold = 0, water = 0, byreq = 0, rd[2] = { 0, 0 }, wd = 0, other = 0, xon = 0, x[5];
	double minseek = 0;
	int rc, i;

	if ((rc = get_num(c, d, "disk", "Never disconnect", 0, 0, &never)) ||
	    (rc = get_num(c, d, "disk", "Hold bus entire read xfer", 0, 0, &hold)) ||
	    (rc = get_num(c, d, "disk", "High (read) water mark", 0, 0, &water)) ||
	    (rc = get_num(c, d, "disk", "Set watermark by reqsize", 0, 1, &byreq)) ||
	    (rc = get_num(c, d, "disk", "Read disconnect afterread", 0, 0, &rd[0])) ||
	    (rc = get_num(c, d, "disk", "Read disconnect afterwrite", 0, 0, &rd[1])) ||
	    (rc = get_num(c, d, "disk", "Write disconnect overhead", 0, 0, &wd)) ||
	    (rc = get_num(c, d, "disk", "Other reselect overhead", 0, 0, &other)) ||
	    (rc = get_num(c, d, "disk", "Extra write disconnect", 0, 0, &xon)) ||
	    (rc = get_num(c, d, "disk", "Minimum seek delay", 0, 0, &minseek)))
		return rc;
	for (i = 0; i < 5; i++)
		if ((rc = get_num(c, d, "disk", xnames[i], 0, 0, &x[i])))
			return rc;
	param(c, d, "disk", "Calc sector by sector");
	if (water < 0 || water > 1)
		return ierr(c->im, d->file, d->line, "%s: High (read) water mark %g outside 0..1", d->name, water);
	outf(c->o, "\n# disconnection: Never disconnect %.0f, Hold bus entire read xfer %.0f, High (read) water "
	     "mark %.6g by %s\n", never, hold, water, byreq != 0 ? "request" : "segment");
	if (never != 0) {
		outf(c->o, "read_watermark = never\n");
	} else if (hold != 0) {
		outf(c->o, "read_watermark = %.6g%s\n", water, byreq != 0 ? "" : " segment");
	} else {
		/* The engine holds the bus for the whole read; DiskSim's reconnection per piece is not expressed. */
		for (size_t j = 0; j < d->n; j++)
			if (strcmp(d->p[j].name, "Hold bus entire read xfer") == 0 ||
			    strcmp(d->p[j].name, "High (read) water mark") == 0 ||
			    strcmp(d->p[j].name, "Set watermark by reqsize") == 0)
				d->p[j].used = 0;
	}
	outf(c->o, "read_disconnect_overhead_ms = %.6g %.6g\nwrite_disconnect_overhead_ms = %.6g\n"
	     "reselect_other_overhead_ms = %.6g\n", rd[0] * scale, rd[1] * scale, wd * scale, other * scale);
	if (xon != 0 && never == 0)
		/* DiskSim scales the overheads, not the inter-disconnect delay. */
		outf(c->o, "extra_write_disconnect_ms = %.6g %.6g %.6g %.6g %.6g\n", x[0] * scale, x[1] * scale,
		     x[2], x[3] * scale, x[4] * scale);
	outf(c->o, "min_write_seek_ms = %.6g\n", minseek);
	return 0;
}

static int disk(struct ctx *c, struct dsblock *d, struct dsblock *bus, struct dsblock *ctlr)
{
	double fwl = 0;
	int rc;

	if ((rc = get_num(c, d, "disk", "Fast write level", 0, 0, &fwl)) ||
	    (rc = overheads(c, d, fwl)) || (rc = transfer(c, d, bus, ctlr)) ||
	    (rc = cache(c, d, fwl)) || (rc = queue(c, d)))
		return rc;
	if (c->engine) {
		double scale = 1;

		if ((rc = get_num(c, d, "disk", "Time scale for overheads", 0, 1, &scale)) ||
		    (rc = disconnects(c, d, scale)))
			return rc;
	}
	param(c, d, "disk", "Print stats");
	param(c, d, "disk", "Avg sectors per cylinder");
	unused(c, d, "disk");
	return 0;
}

/* ---- which disk, its bus and controller ---- */

static struct dsblock *block_named(struct imp *im, const char *type, const char *name)
{
	size_t i;

	for (i = 0; i < im->nblocks; i++)
		if (strcmp(im->blocks[i]->name, name) == 0 && (!type || strcmp(im->blocks[i]->type, type) == 0))
			return im->blocks[i];
	return NULL;
}

/* The block instance inst instantiates, or NULL. */
static struct dsblock *block_of_inst(struct imp *im, const char *type, const char *inst)
{
	size_t i, j;

	for (i = 0; i < im->ninsts; i++)
		for (j = 0; j < im->insts[i].n; j++)
			if (strcmp(im->insts[i].names[j], inst) == 0)
				return block_named(im, type, im->insts[i].as);
	return NULL;
}

/* The path from a topology root down to inst: 1 when found. */
static int topo_path(const struct dstopo *t, const char *inst, const struct dstopo **path, int depth, int *len)
{
	size_t i;

	if (depth >= IMP_MAX_NEST)
		return 0;
	path[depth] = t;
	if (t->name && strcmp(t->name, inst) == 0) {
		*len = depth + 1;
		return 1;
	}
	for (i = 0; i < t->n; i++)
		if (topo_path(&t->kids[i], inst, path, depth + 1, len))
			return 1;
	return 0;
}

/* The disk to import: --disk NAME, the one instantiated, or the only one defined. */
static int choose_disk(struct imp *im, const char *want, struct dsblock **d, const char **inst)
{
	const char *top = im->files[0];
	struct dsblock *found = NULL;
	size_t i, j;

	*inst = NULL;
	if (want) {
		if ((found = block_named(im, "disksim_disk", want)) ||
		    (found = block_of_inst(im, "disksim_disk", want))) {
			*d = found;
			for (i = 0; i < im->ninsts && !*inst; i++)
				if (strcmp(im->insts[i].as, found->name) == 0 && im->insts[i].n)
					*inst = im->insts[i].names[0];
			if (block_of_inst(im, "disksim_disk", want))
				*inst = want;
			return 0;
		}
		return ierr(im, top, 0, "--disk %s: no disksim_disk block or instance of that name", want);
	}
	for (i = 0; i < im->ninsts; i++) {
		struct dsblock *b = block_named(im, "disksim_disk", im->insts[i].as);

		if (b && im->insts[i].n) {
			if (found && found != b)
				return ierr(im, top, 0, "disks %s and %s are both instantiated: choose one with --disk NAME",
					    found->name, b->name);
			found = b;
			*inst = im->insts[i].names[0];
		}
	}
	if (!found)
		for (j = 0; j < im->nblocks; j++)
			if (strcmp(im->blocks[j]->type, "disksim_disk") == 0) {
				if (found)
					return ierr(im, top, 0, "several disksim_disk blocks (%s, %s, ...): choose one with "
						    "--disk NAME", found->name, im->blocks[j]->name);
				found = im->blocks[j];
			}
	if (!found)
		return ierr(im, top, 0, "no disksim_disk block");
	*d = found;
	return 0;
}

/* The bus right above the disk in the topology and the controller above that bus. */
static void bus_ctlr(struct imp *im, const char *inst, struct dsblock **bus, struct dsblock **ctlr)
{
	const struct dstopo *path[IMP_MAX_NEST];
	int len = 0, i;

	*bus = *ctlr = NULL;
	if (!inst || !topo_path(&im->topo, inst, path, 0, &len))
		return;
	for (i = len - 2; i >= 0; i--) {
		if (!*bus && path[i]->type && strcmp(path[i]->type, "disksim_bus") == 0)
			*bus = block_of_inst(im, "disksim_bus", path[i]->name);
		else if (*bus && path[i]->type && strcmp(path[i]->type, "disksim_ctlr") == 0) {
			*ctlr = block_of_inst(im, "disksim_ctlr", path[i]->name);
			return;
		}
	}
}

/* ---- the whole ---- */

static int model(struct ctx *c, struct dsblock *d, const char *inst, struct dsblock *bus,
		 struct dsblock *ctlr)
{
	struct dsblock *mb, *lb, *mech_b;
	long long surfaces = 1;
	double rpm = 0;
	int rc;

	if ((rc = get_block(c, d, "disk", "Model", "dm_disk", &mb)) ||
	    (rc = get_block(c, mb, "model", "Layout Model", NULL, &lb)) ||
	    (rc = get_block(c, mb, "model", "Mechanical Model", NULL, &mech_b)) ||
	    (rc = get_int(c, mb, "model", "Number of data surfaces", 1, 0, 1, 1024, &surfaces)) ||
	    (rc = get_num(c, mech_b, "mech", "Rotation speed (in rpms)", 1, 0, &rpm)))
		return rc;
	param(c, mb, "model", "Number of cylinders");
	param(c, mb, "model", "Block count");
	c->surfaces = surfaces;
	if (strlen(d->name) > 127)
		return ierr(c->im, d->file, d->line, "the disk's name is longer than 127 characters");
	outf(c->o, "# Imported by 'hddscope sim import' from DiskSim 4.0 parameter files: %s, disk %s%s%s.\n",
	     c->im->files[0], d->name, inst ? ", instance " : "", inst ? inst : "");
	outf(c->o, "# The numbers come from those files; data/drives/README.md, \"Importing DiskSim\n"
		   "# models\", says what each DiskSim parameter became.\n");
	outf(c->o, "format = 1\nname = %s\nrpm = %.10g\nsector_bytes = 512\nsurfaces = %lld\n", d->name, rpm,
	     surfaces);
	if ((rc = layout(c, lb)) || (rc = mech(c, mech_b)) || (rc = disk(c, d, bus, ctlr)))
		return rc;
	unused(c, mb, "model");
	return 0;
}

static void imp_free(struct imp *im)
{
	size_t i, j;

	while (im->depth)
		free(im->stack[--im->depth].text);
	for (i = 0; i < (size_t)im->nla; i++)
		free(im->la[i].s);
	for (i = 0; i < im->nblocks; i++)
		free_block(im->blocks[i]);
	free(im->blocks);
	for (i = 0; i < im->ninsts; i++) {
		for (j = 0; j < im->insts[i].n; j++)
			free(im->insts[i].names[j]);
		free(im->insts[i].names);
		free(im->insts[i].as);
	}
	free(im->insts);
	free_topo(&im->topo);
	for (i = 0; i < im->nfiles; i++)
		free(im->files[i]);
	free(im->files);
}

/* The output parses as a model: its capacity for the closing comment. */
static int check_output(struct ctx *c, struct dsblock *d)
{
	struct hd_sim_model *m;
	char why[512];
	struct dsblock *mb = NULL;
	double bc = 0, nc = 0;
	size_t i;

	if (hd_sim_model_parse(c->o->buf, c->o->len, "(imported model)", &m, why, sizeof(why)))
		return ierr(c->im, c->im->files[0], 0, "the imported model does not parse: %s", why);
	for (i = 0; i < d->n; i++)
		if (strcmp(d->p[i].name, "Model") == 0 && d->p[i].v.k == V_BLOCK)
			mb = d->p[i].v.block;
	for (i = 0; mb && i < mb->n; i++) {
		if (strcmp(mb->p[i].name, "Block count") == 0 && mb->p[i].v.k == V_WORD)
			bc = strtod(mb->p[i].v.word, NULL);
		if (strcmp(mb->p[i].name, "Number of cylinders") == 0 && mb->p[i].v.k == V_WORD)
			nc = strtod(mb->p[i].v.word, NULL);
	}
	outf(c->o, "\n# DiskSim's Block count = %.0f and Number of cylinders = %.0f; the layout holds %llu "
		   "LBAs on %u cylinders (DiskSim too counts the LBAs from the layout)\n",
	     bc, nc, (unsigned long long)m->sectors, m->cylinders);
	hd_sim_model_free(m);
	return 0;
}

int hd_sim_import(const char *path, const char *want, char **text, size_t *len, char *err, size_t errlen)
{
	struct imp im = { 0 };
	struct out o = { 0 };
	struct ctx c = { &im, &o, hd_sim_model_key_known("read_miss_overhead_ms"), { 0 }, 0, 1, 0 };
	struct dsblock *d = NULL, *bus = NULL, *ctlr = NULL;
	const char *inst = NULL;
	char *p;
	int rc;

	im.err = err;
	im.errlen = errlen;
	if (errlen)
		err[0] = '\0';
	if (!(p = xstrdup(&im, path, strlen(path))))
		return -ENOMEM;
	rc = push_file(&im, p, path, 0);
	if (!rc)
		rc = parse_top(&im);
	if (!rc)
		rc = choose_disk(&im, want, &d, &inst);
	if (!rc) {
		bus_ctlr(&im, inst, &bus, &ctlr);
		rc = model(&c, d, inst, bus, ctlr);
	}
	if (!rc && !c.notes.oom && c.notes.len)
		outf(&o, "\n# DiskSim parameters this model does not express:\n%.*s", (int)c.notes.len, c.notes.buf);
	if (!rc)
		rc = check_output(&c, d);
	if (!rc && (o.oom || c.notes.oom))
		rc = nomem(&im);
	imp_free(&im);
	free(c.notes.buf);
	if (rc) {
		free(o.buf);
		return rc;
	}
	*text = o.buf;
	*len = o.len;
	return 0;
}
