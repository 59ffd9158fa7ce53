/*
 * The file rules every command follows (hddscope(1), SAFETY): an output is
 * written to a temporary file beside it and renamed over nothing but a
 * regular file; an existing path that is not a regular file (or not a
 * directory, where one is asked for) is refused before any measurement;
 * an input must be a regular file and is read in lines of bounded length
 * with no NUL bytes, so that no input can hang a run or exhaust memory.
 *
 * Functions return 0 (or a length) or a negative error code: -errno, or
 * one of the HD_E* codes below; hd_fs_strerror() names either.
 */
#ifndef HDDSCOPE_FSUTIL_H
#define HDDSCOPE_FSUTIL_H

#include <stdio.h>
#include <sys/types.h>

/* Error codes of this module beyond errno's (negated like errno values). */
enum {
	HD_ENOTREG = 4096,	/* exists and is not a regular file */
	HD_ENOTDIRX,		/* exists and is not a directory */
	HD_ESYMLINK,		/* is a symbolic link, which is never replaced */
	HD_ELONGLINE,		/* a line longer than the reader's bound */
	HD_ENUL,		/* a NUL byte in a text file */
	HD_ECRLF,		/* a CRLF line ending where only LF is read */
	HD_EEMPTYOUT,		/* an output came out empty */
};

/* A message for rc (negative): strerror() or this module's own. */
const char *hd_fs_strerror(int rc);

/*
 * May path be written as an output file?  It may be absent (its directory
 * must then exist and be writable) or a regular file that is not a
 * symbolic link.  Returns 0 or -errno / -HD_ENOTREG / -HD_ESYMLINK /
 * -EISDIR.  Nothing is created.
 */
int hd_out_check_file(const char *path);

/*
 * May path be used as an output directory?  Absent (its parent must
 * exist) or a directory (a symbolic link to one is followed).  Returns 0
 * or -errno / -HD_ENOTDIRX.  Nothing is created.
 */
int hd_out_check_dir(const char *path);

/* hd_out_check_dir, then create it if absent (mode 0755). */
int hd_out_make_dir(const char *path);

/*
 * Create the temporary file for output path, after hd_out_check_file(path):
 * "PATH.tmp.PID", created with O_EXCL (never through a link left there).  *tmp receives the malloc'd
 * name.  Returns the descriptor or -errno.
 */
int hd_out_tmp_open(const char *path, char **tmp);
/* The same, named "BASE.tmp.PID.EXT": for writers that choose a format by the name's ending. */
int hd_out_tmp_open_ext(const char *path, char **tmp);

/*
 * Put tmp in place of path: path is checked again just before the rename
 * (absent or a regular file), and tmp is removed when it cannot go there.
 * An empty tmp is refused (-HD_EEMPTYOUT) when nonempty is set.
 */
int hd_out_commit(const char *tmp, const char *path, int nonempty);

/* Write all n bytes of buf to fd (retrying short writes and EINTR): 0 or -errno. */
int hd_write_full(int fd, const void *buf, size_t n);

/*
 * The end of every output: after a write error rc (0 when none), fsync and
 * close fd, then put tmp in place of path (hd_out_commit), or remove it.
 * Frees tmp.  *errcall names the failing call.
 */
int hd_out_finish(int fd, int rc, char *tmp, const char *path, const char **errcall);

/* hd_out_tmp_open as a stdio stream: 0 and *f, *tmp, or -errno. */
int hd_out_fopen(const char *path, FILE **f, char **tmp);

/*
 * Flush, fsync and close f, then hd_out_commit(tmp, path, 0).  On failure
 * tmp is removed; either way it is freed.  *errcall names the failing call.
 */
int hd_out_fclose(FILE *f, char *tmp, const char *path, const char **errcall);

/* Give up an output begun with hd_out_fopen: close f, remove and free tmp. */
void hd_out_fdrop(FILE *f, char *tmp);

/*
 * Write the whole of a memory buffer as output path through the temporary
 * file, fsync'd, then hd_out_commit.  *errcall names the failing call.
 */
int hd_out_write_all(const char *path, const void *buf, size_t len, const char **errcall);

/*
 * Open an input for reading: it must be a regular file (FIFOs, devices,
 * sockets and directories are refused with -HD_ENOTREG or -EISDIR without
 * blocking).  Returns 0 and *f, or a negative code.
 */
int hd_in_open(const char *path, FILE **f);

/*
 * The one-line message for a failed hd_in_open of path, in buf: "PATH:
 * exists and is not a regular file; refusing to use it" (or "PATH: is a
 * directory, not a regular file") for a refusal, "open PATH: REASON" for
 * anything else.
 */
void hd_in_strerror(char *buf, size_t len, const char *path, int rc);

/*
 * A reader of text lines whose length is bounded before anything is
 * allocated: a line is at most max bytes, its "\n" removed, and a "\r"
 * before it removed and noted in had_cr (a max-byte line may end in
 * "\r\n").  Whether a "\r\n" ending is accepted is the caller's rule.
 */
struct hd_lines {
	FILE *f;
	char *buf;
	size_t max;
	size_t len;		/* length of the line last read */
	size_t lineno;		/* number of the line last read, from 1 */
	int had_cr;		/* the last line ended in "\r\n" */
};

/* Start reading f with lines of at most max bytes; -ENOMEM. */
int hd_lines_init(struct hd_lines *l, FILE *f, size_t max);
/*
 * Read the next line into l->buf (NUL-terminated, length l->len): 1, or 0
 * at the end of the file, or -HD_ELONGLINE, -HD_ENUL, -errno.  A last line
 * without "\n" is a line.
 */
int hd_lines_next(struct hd_lines *l);
/*
 * Read the rest of l's file into *text (malloc'd, NUL-terminated, each
 * line ended by "\n", a "\r\n" ending read as "\n"), at most max_total
 * bytes in all.  Returns 0, or hd_lines_next's errors or -EFBIG or
 * -ENOMEM, with l->lineno the line at fault.
 */
int hd_lines_slurp(struct hd_lines *l, size_t max_total, char **text, size_t *len);
void hd_lines_free(struct hd_lines *l);
/*
 * The one-line message for an error rc of hd_lines_next on path, in buf:
 * "PATH:LINE: line longer than MAX bytes", "PATH:LINE: NUL byte ..." (and
 * the same for -HD_ECRLF, which a caller may make of had_cr), or "read
 * PATH: REASON".
 */
void hd_lines_strerror(char *buf, size_t len, const struct hd_lines *l, const char *path, int rc);

#endif
