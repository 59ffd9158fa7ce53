/*
 * bench_rusage: run a command and report what it cost, for tests/bench/run.
 *
 *   bench_rusage OUT COMMAND [ARG...]
 *
 * Runs COMMAND (its output goes where ours goes), waits for it and writes
 * one line to OUT: "user_s sys_s maxrss_kb wall_s exit_code".  The figures
 * come from wait4()'s rusage, so they count the command and every child it
 * waited for (gnuplot under "hddscope plot", fio's job processes), the same
 * way for hddscope and for its peers; the shell's own time builtin would
 * count the shell as well, and GNU time is not always installed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	FILE *out;
	pid_t pid;
	int status, code;

	if (argc < 3) {
		fprintf(stderr, "usage: bench_rusage OUT COMMAND [ARG...]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "bench_rusage: fork: %s\n", strerror(errno));
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "bench_rusage: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "bench_rusage: wait4: %s\n", strerror(errno));
			return 2;
		}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	out = fopen(argv[1], "w");
	if (!out) {
		fprintf(stderr, "bench_rusage: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	fprintf(out, "%.6f %.6f %ld %.6f %d\n", tv_s(ru.ru_utime), tv_s(ru.ru_stime), ru.ru_maxrss,
		(double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, code);
	return fclose(out) == 0 ? code : 2;
}
