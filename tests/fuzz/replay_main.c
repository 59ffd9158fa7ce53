/*
 * The corpus replayer: a main() for a fuzz harness built without
 * libFuzzer (gcc, CI).  Every argument is a file or a directory of files;
 * each file is passed to LLVMFuzzerTestOneInput once, in name order, so
 * that every input of the seed corpus (and every regression input) is
 * checked on every test run, under the sanitizers where they are on.  A
 * crash or a failed invariant aborts the process: CTest reports the test
 * as failed and the last "replay:" line names the input.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Read a whole file; 0 or -errno. */
static int slurp(const char *path, uint8_t **data, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;

	if (!f)
		return -errno;
	for (;;) {
		size_t n;

		if (len == cap) {
			uint8_t *nb = realloc(buf, cap = cap ? cap * 2 : 4096);
			if (!nb) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	*data = buf;
	*size = len;
	return 0;
}

static int run_file(const char *path)
{
	uint8_t *data = NULL;
	size_t size = 0;
	int rc = slurp(path, &data, &size);

	if (rc) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(-rc));
		return -1;
	}
	/* Printed before the run, so that a crash leaves the input's name behind. */
	fprintf(stderr, "replay: %s (%zu bytes)\n", path, size);
	/*
	 * An exact-size copy, so that AddressSanitizer catches a read one byte
	 * past the input as libFuzzer would.
	 */
	{
		uint8_t *exact = malloc(size ? size : 1);

		if (!exact) {
			free(data);
			return -1;
		}
		if (size)
			memcpy(exact, data, size);
		free(data);
		LLVMFuzzerTestOneInput(exact, size);
		free(exact);
	}
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of a directory, in name order (readdir's order is arbitrary). */
static int run_dir(const char *dir, int *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;
	int rc = 0;

	if (!d) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		char **nn;

		if (e->d_name[0] == '.')
			continue;
		nn = realloc(names, (n + 1) * sizeof(*nn));
		if (!nn || !(nn[n] = strdup(e->d_name))) {
			free(nn ? nn : names);
			closedir(d);
			return -1;
		}
		names = nn;
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; i < n; i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (!rc && run_file(path) == 0)
			++*count;
		else
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	int count = 0, rc = 0;

	LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc && !rc; i++) {
		struct stat st;

		if (stat(argv[i], &st) < 0) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			rc = -1;
		} else if (S_ISDIR(st.st_mode)) {
			rc = run_dir(argv[i], &count);
		} else if (run_file(argv[i]) == 0) {
			count++;
		} else {
			rc = -1;
		}
	}
	/* An empty corpus would make the test pass without checking anything. */
	if (!rc && count == 0) {
		fprintf(stderr, "replay: no inputs\n");
		rc = -1;
	}
	if (!rc)
		printf("replay: %d inputs, no failure\n", count);
	return rc ? 1 : 0;
}
