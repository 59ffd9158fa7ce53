/*
 * Shared helpers: size and number parsing (range-checked, overflow is an
 * error), a small seeded generator so that runs repeat, clocks, and
 * locale-independent number formatting for the data files.
 */
#include <ctype.h>
#include <locale.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#include "hddscope/util.h"

/* Parse "[0-9]+(\.[0-9]+)?" at *sp into an integer part and a fraction. */
static int parse_decimal(const char **sp, uint64_t *ip, uint64_t *frac, uint64_t *fscale)
{
	const char *s = *sp;
	uint64_t v = 0;
	int digits = 0;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	*frac = 0;
	*fscale = 1;
	while (isdigit((unsigned char)*s)) {
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
		s++;
		digits++;
	}
	if (*s == '.') {
		s++;
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		while (isdigit((unsigned char)*s)) {
			/* Digits past 18 cannot change a whole byte count. */
			if (*fscale < 1000000000000000000ULL) {
				*frac = *frac * 10 + (uint64_t)(*s - '0');
				*fscale *= 10;
			} else if (*s != '0') {
				return -EDOM;
			}
			s++;
			digits++;
		}
	}
	if (digits == 0)
		return -EINVAL;
	*ip = v;
	*sp = s;
	return 0;
}

/* An unsigned decimal with an optional '+': no sign of minus, nothing empty. */
static int parse_unsigned(const char **sp, uint64_t *ip, uint64_t *frac, uint64_t *fscale)
{
	if (*sp == NULL || **sp == '\0' || **sp == '-')
		return -EINVAL;
	if (**sp == '+')
		(*sp)++;
	return parse_decimal(sp, ip, frac, fscale);
}

int hd_parse_size(const char *s, uint64_t *out)
{
	uint64_t ip, frac, fscale, mult = 1;
	int rc;

	rc = parse_unsigned(&s, &ip, &frac, &fscale);
	if (rc)
		return rc;
	switch (tolower((unsigned char)*s)) {
	case 'k': mult = 1ULL << 10; s++; break;
	case 'm': mult = 1ULL << 20; s++; break;
	case 'g': mult = 1ULL << 30; s++; break;
	case 't': mult = 1ULL << 40; s++; break;
	default: break;
	}
	if (mult > 1 && tolower((unsigned char)*s) == 'i')
		s++;
	if (tolower((unsigned char)*s) == 'b')
		s++;
	if (*s != '\0')
		return -EINVAL;
	if (ip > (uint64_t)INT64_MAX / mult)
		return -ERANGE;
	/* The fraction times the multiplier must come out whole. */
	if (frac) {
		__extension__ unsigned __int128 f = (unsigned __int128)frac * mult;
		if (f % fscale)
			return -EDOM;
		ip = ip * mult + (uint64_t)(f / fscale);
	} else {
		ip *= mult;
	}
	if (ip > (uint64_t)INT64_MAX)
		return -ERANGE;
	*out = ip;
	return 0;
}

int hd_parse_u64(const char *s, uint64_t *out)
{
	uint64_t ip, frac, fscale;
	int rc;

	rc = parse_unsigned(&s, &ip, &frac, &fscale);
	if (rc)
		return rc;
	if (*s != '\0')
		return -EINVAL;
	if (fscale != 1)
		return -EDOM;
	*out = ip;
	return 0;
}

int hd_parse_double(const char *s, double *out)
{
	static locale_t c_locale;
	const char *p = s;
	char *end;
	double v;
	int digits = 0;

	/*
	 * The shape is checked by hand (digits, an optional fraction and
	 * exponent: no hex, inf or nan), the value comes from strtod_l in the
	 * C locale, which rounds correctly whatever the process's locale says.
	 */
	if (p == NULL)
		return -EINVAL;
	if (*p == '-' || *p == '+')
		p++;
	while (isdigit((unsigned char)*p)) {
		p++;
		digits++;
	}
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p)) {
			p++;
			digits++;
		}
	}
	if (digits == 0)
		return -EINVAL;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '-' || *p == '+')
			p++;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p != '\0')
		return -EINVAL;
	if (!c_locale)
		c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	if (!c_locale)
		return -ENOMEM;
	errno = 0;
	v = strtod_l(s, &end, c_locale);
	/* Overflow is refused; a value too small to hold reads as the nearest double (maybe 0). */
	if (end != p || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

const char *hd_parse_strerror(int err)
{
	switch (err) {
	case -ERANGE: return "number too large";
	case -EDOM: return "not a whole number";
	default: return "not a valid number";
	}
}

char *hd_fmt_size(char *buf, size_t len, uint64_t bytes)
{
	static const char *unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	if (u == 0 || v == floor(v))
		snprintf(buf, len, "%.0f %s", v, unit[u]);
	else
		snprintf(buf, len, "%.1f %s", v, unit[u]);
	return buf;
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void hd_rng_seed(struct hd_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t hd_rng_next(struct hd_rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

double hd_rng_uniform(struct hd_rng *r)
{
	return (double)(hd_rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t hd_rng_below(struct hd_rng *r, uint64_t n)
{
	/* Rejection keeps the result unbiased for any n. */
	uint64_t lim = UINT64_MAX - UINT64_MAX % n, x;

	do
		x = hd_rng_next(r);
	while (x >= lim);
	return x % n;
}

double hd_rng_gauss(struct hd_rng *r)
{
	double u1, u2;

	do
		u1 = hd_rng_uniform(r);
	while (u1 <= 0);
	u2 = hd_rng_uniform(r);
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

int64_t hd_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t hd_run_wait_ns(void)
{
	/* Opened once per process (a forked client has threads of its own). */
	static int fd = -1;
	static pid_t owner;
	char buf[96];
	ssize_t n;
	unsigned long long run, wait;

	if (fd < 0 || owner != getpid()) {
		if (fd >= 0)
			close(fd);
		fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
		owner = getpid();
		if (fd < 0)
			return -1;
	}
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	if (sscanf(buf, "%llu %llu", &run, &wait) != 2)
		return -1;
	return (int64_t)wait;
}

char *hd_utc_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

int hd_parse_duration(const char *s, int64_t *ns)
{
	static const struct {
		const char *suf;
		double mul;
	} units[] = {
		{ "ms", 1e6 }, { "us", 1e3 }, { "ns", 1 }, { "s", 1e9 }, { "m", 60e9 }, { "h", 3600e9 }, { "", 1e9 },
	};
	size_t n = strlen(s);
	char num[64];
	double v;

	/* The first suffix that matches wins: "ms" is tried before "s" and "m". */
	for (size_t k = 0; k < sizeof(units) / sizeof(units[0]); k++) {
		size_t sl = strlen(units[k].suf);

		if (n <= sl || strcmp(s + n - sl, units[k].suf) != 0 || n - sl >= sizeof(num))
			continue;
		memcpy(num, s, n - sl);
		num[n - sl] = '\0';
		if (hd_parse_double(num, &v) || !(v > 0))
			return -EINVAL;
		/* Checked as a double, before llround could be handed a value beyond int64_t. */
		if (!(v * units[k].mul >= 0.5 && v * units[k].mul <= HD_DURATION_MAX_NS))
			return -ERANGE;
		*ns = llround(v * units[k].mul);
		return 0;
	}
	return -EINVAL;
}

/* The escaped form of byte c in esc (at least 5 bytes); its length. */
static size_t quote_byte(unsigned char c, char *esc)
{
	if (c == '\\')
		return (size_t)snprintf(esc, 5, "\\\\");
	if (c < 0x20 || c > 0x7e)
		return (size_t)snprintf(esc, 5, "\\x%02x", c);
	esc[0] = (char)c;
	esc[1] = '\0';
	return 1;
}

char *hd_quote(char *buf, size_t len, const char *s)
{
	static const char more[] = "...";
	size_t n = 0, total = 0, room;
	char esc[5];

	if (len < sizeof(more) + 4) {
		if (len)
			buf[0] = '\0';
		return buf;
	}
	for (const char *p = s; *p; p++)
		total += quote_byte((unsigned char)*p, esc);
	/* Cut text keeps room for "...", so that a cut is never taken for the end. */
	room = total < len ? len - 1 : len - sizeof(more);
	for (; *s; s++) {
		size_t k = quote_byte((unsigned char)*s, esc);

		if (n + k > room)
			break;
		memcpy(buf + n, esc, k);
		n += k;
	}
	if (*s) {
		memcpy(buf + n, more, sizeof(more));
		return buf;
	}
	buf[n] = '\0';
	return buf;
}
