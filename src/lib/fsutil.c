/*
 * The file rules (hddscope(1), SAFETY) in one place: what may be replaced by
 * an output, how an output reaches its name, and how inputs are opened and
 * read so that a FIFO, a device or a file without newlines can neither hang
 * a run nor exhaust its memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hddscope/fsutil.h"

const char *hd_fs_strerror(int rc)
{
	switch (-rc) {
	case HD_ENOTREG: return "exists and is not a regular file; refusing to use it";
	case HD_ENOTDIRX: return "exists and is not a directory";
	case HD_ESYMLINK: return "is a symbolic link; refusing to replace it";
	case HD_ELONGLINE: return "line too long";
	case HD_ENUL: return "NUL byte in a text file";
	case HD_ECRLF: return "CRLF line ending (this file is read with LF endings only; convert it with dos2unix)";
	case HD_EEMPTYOUT: return "came out empty or incomplete";
	default: return strerror(-rc);
	}
}

/* The directory part of path, in buf. */
static const char *dir_of(const char *path, char *buf, size_t len)
{
	snprintf(buf, len, "%s", path);
	return dirname(buf);
}

/* Is st (of dir) a directory hddscope may create files in?  notdir: the code when it is no directory. */
static int writable_dir(const char *dir, const struct stat *st, int notdir)
{
	if (!S_ISDIR(st->st_mode))
		return notdir;
	if (access(dir, W_OK | X_OK) < 0)
		return -errno;
	return 0;
}

/* An absent output needs a writable directory to be created in. */
static int parent_writable(const char *path)
{
	char buf[PATH_MAX];
	const char *dir = dir_of(path, buf, sizeof(buf));
	struct stat st;

	if (stat(dir, &st) < 0)
		return -errno;
	return writable_dir(dir, &st, -ENOTDIR);
}

int hd_out_check_file(const char *path)
{
	struct stat st;

	if (!path || !*path)
		return -ENOENT;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? parent_writable(path) : -errno;
	if (S_ISLNK(st.st_mode))
		return -HD_ESYMLINK;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return -HD_ENOTREG;
	return parent_writable(path);
}

int hd_out_check_dir(const char *path)
{
	struct stat st;

	if (!path || !*path)
		return -ENOENT;
	if (stat(path, &st) < 0) {
		if (errno != ENOENT)
			return -errno;
		/* A dangling link would have mkdir fail; say what it is. */
		if (lstat(path, &st) == 0)
			return -HD_ESYMLINK;
		return parent_writable(path);
	}
	return writable_dir(path, &st, -HD_ENOTDIRX);
}

int hd_out_make_dir(const char *path)
{
	int rc = hd_out_check_dir(path);

	if (rc)
		return rc;
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return -errno;
	return hd_out_check_dir(path);
}

/* Create name exclusively; a leftover regular file of an earlier run with our pid goes first. */
static int create_excl(const char *name)
{
	int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	struct stat st;

	if (fd < 0 && errno == EEXIST) {
		if (lstat(name, &st) == 0 && S_ISREG(st.st_mode) && unlink(name) == 0)
			fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
		else
			errno = EEXIST;
	}
	return fd < 0 ? -errno : fd;
}

static int tmp_open(const char *path, char **tmp, int keep_ext)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
	int fd, n = hd_out_check_file(path);

	/* The output rule first: nothing is created beside what may not be replaced. */
	*tmp = NULL;
	if (n)
		return n;
	if (keep_ext && dot && dot > (slash ? slash + 1 : path))
		n = asprintf(tmp, "%.*s.tmp.%ld%s", (int)(dot - path), path, (long)getpid(), dot);
	else
		n = asprintf(tmp, "%s.tmp.%ld", path, (long)getpid());
	if (n < 0) {
		*tmp = NULL;
		return -ENOMEM;
	}
	fd = create_excl(*tmp);
	if (fd < 0) {
		free(*tmp);
		*tmp = NULL;
	}
	return fd;
}

int hd_out_tmp_open(const char *path, char **tmp)
{
	return tmp_open(path, tmp, 0);
}

int hd_out_tmp_open_ext(const char *path, char **tmp)
{
	return tmp_open(path, tmp, 1);
}

int hd_out_commit(const char *tmp, const char *path, int nonempty)
{
	struct stat st;
	int rc = 0;

	if (nonempty && (stat(tmp, &st) < 0 || st.st_size == 0))
		rc = -HD_EEMPTYOUT;
	if (!rc && lstat(path, &st) == 0) {
		if (S_ISLNK(st.st_mode))
			rc = -HD_ESYMLINK;
		else if (S_ISDIR(st.st_mode))
			rc = -EISDIR;
		else if (!S_ISREG(st.st_mode))
			rc = -HD_ENOTREG;
	}
	if (!rc && rename(tmp, path) < 0)
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

int hd_write_full(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t k = write(fd, p, n);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

int hd_out_finish(int fd, int rc, char *tmp, const char *path, const char **errcall)
{
	if (!rc && fsync(fd) < 0) {
		*errcall = "fsync";
		rc = -errno;
	}
	if (close(fd) < 0 && !rc) {
		*errcall = "close";
		rc = -errno;
	}
	if (rc) {
		unlink(tmp);
	} else {
		*errcall = "rename";
		rc = hd_out_commit(tmp, path, 0);
	}
	free(tmp);
	return rc;
}

int hd_out_write_all(const char *path, const void *buf, size_t len, const char **errcall)
{
	char *tmp;
	int fd;

	*errcall = "create";
	fd = hd_out_tmp_open(path, &tmp);
	if (fd < 0)
		return fd;
	*errcall = "write";
	return hd_out_finish(fd, hd_write_full(fd, buf, len), tmp, path, errcall);
}

int hd_out_fopen(const char *path, FILE **f, char **tmp)
{
	int fd = hd_out_tmp_open(path, tmp);

	*f = NULL;
	if (fd < 0)
		return fd;
	*f = fdopen(fd, "w");
	if (!*f) {
		int e = errno;

		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		return -e;
	}
	return 0;
}

int hd_out_fclose(FILE *f, char *tmp, const char *path, const char **errcall)
{
	int rc = 0, fd;

	*errcall = "write";
	errno = 0;
	if (fflush(f) || ferror(f))
		rc = errno ? -errno : -EIO;
	/* The descriptor outlives the stream, for fsync: close it last. */
	fd = dup(fileno(f));
	fclose(f);
	if (fd < 0) {
		unlink(tmp);
		free(tmp);
		return rc ? rc : -errno;
	}
	return hd_out_finish(fd, rc, tmp, path, errcall);
}

void hd_out_fdrop(FILE *f, char *tmp)
{
	if (f)
		fclose(f);
	if (tmp)
		unlink(tmp);
	free(tmp);
}

int hd_in_open(const char *path, FILE **f)
{
	struct stat st;
	int fd, fl;

	*f = NULL;
	if (stat(path, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return -HD_ENOTREG;
	/* O_NONBLOCK: should a FIFO take the file's place meanwhile, open does not wait for a writer. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int e = S_ISREG(st.st_mode) ? errno : S_ISDIR(st.st_mode) ? EISDIR : HD_ENOTREG;

		close(fd);
		return -e;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	*f = fdopen(fd, "r");
	if (!*f) {
		int e = errno;

		close(fd);
		return -e;
	}
	return 0;
}

void hd_in_strerror(char *buf, size_t len, const char *path, int rc)
{
	/* A refusal is about what the path is; anything else is what open said. */
	if (rc == -HD_ENOTREG || rc == -EISDIR)
		snprintf(buf, len, "%s: %s", path, rc == -EISDIR ? "is a directory, not a regular file" :
			 hd_fs_strerror(rc));
	else
		snprintf(buf, len, "open %s: %s", path, hd_fs_strerror(rc));
}

int hd_lines_init(struct hd_lines *l, FILE *f, size_t max)
{
	memset(l, 0, sizeof(*l));
	l->f = f;
	l->max = max;
	l->buf = malloc(max + 1);
	return l->buf ? 0 : -ENOMEM;
}

int hd_lines_next(struct hd_lines *l)
{
	size_t n = 0;
	int c, nul = 0;

	l->had_cr = 0;
	l->len = 0;
	l->buf[0] = '\0';
	while ((c = getc_unlocked(l->f)) != EOF && c != '\n') {
		/* The buffer's spare byte may hold the "\r" of a max-byte CRLF line. */
		if (n > l->max || (n == l->max && c != '\r')) {
			l->lineno++;
			return -HD_ELONGLINE;
		}
		nul |= c == '\0';
		l->buf[n++] = (char)c;
	}
	if (c == EOF) {
		if (ferror(l->f))
			return errno ? -errno : -EIO;
		if (n == 0)
			return 0;
	}
	l->lineno++;
	if (nul)
		return -HD_ENUL;
	if (n && l->buf[n - 1] == '\r') {
		n--;
		l->had_cr = 1;
	}
	l->buf[n] = '\0';
	l->len = n;
	return 1;
}

/* Make room for need more bytes in *text (capacity *cap). */
static int text_reserve(char **text, size_t *cap, size_t need)
{
	size_t ncap = *cap ? *cap : 8192;
	char *t;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	t = realloc(*text, ncap);
	if (!t)
		return -ENOMEM;
	*text = t;
	*cap = ncap;
	return 0;
}

int hd_lines_slurp(struct hd_lines *l, size_t max_total, char **text, size_t *len)
{
	size_t cap = 0;
	int rc;

	*text = NULL;
	*len = 0;
	while ((rc = hd_lines_next(l)) == 1) {
		/* The line, its "\n" and the final NUL. */
		if (*len + l->len + 2 > max_total) {
			rc = -EFBIG;
			break;
		}
		if ((rc = text_reserve(text, &cap, *len + l->len + 2)))
			break;
		memcpy(*text + *len, l->buf, l->len);
		*len += l->len;
		(*text)[(*len)++] = '\n';
	}
	if (rc == 0 && (rc = text_reserve(text, &cap, *len + 1)) == 0) {
		(*text)[*len] = '\0';
		return 0;
	}
	free(*text);
	*text = NULL;
	*len = 0;
	return rc;
}

void hd_lines_strerror(char *buf, size_t len, const struct hd_lines *l, const char *path, int rc)
{
	if (rc == -HD_ELONGLINE)
		snprintf(buf, len, "%s:%zu: line longer than %zu bytes", path, l->lineno, l->max);
	else if (rc == -HD_ENUL || rc == -HD_ECRLF)
		snprintf(buf, len, "%s:%zu: %s", path, l->lineno, hd_fs_strerror(rc));
	else
		snprintf(buf, len, "read %s: %s", path, hd_fs_strerror(rc));
}

void hd_lines_free(struct hd_lines *l)
{
	free(l->buf);
	l->buf = NULL;
}
