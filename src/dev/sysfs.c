/*
 * Reading and writing sysfs attributes of block devices.  The root is
 * configurable ($HDDSCOPE_SYSFS) so that the code that changes drive
 * settings can be tested against a fake tree.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "hddscope/sysfs.h"

static const char *root(void)
{
	const char *r = getenv("HDDSCOPE_SYSFS");

	return r && *r ? r : "/sys";
}

int hd_sysfs_read(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	errno = 0;
	if (!fgets(buf, (int)len, f)) {
		int e = errno ? errno : EIO;
		fclose(f);
		return -e;
	}
	fclose(f);
	n = strcspn(buf, "\n");
	buf[n] = '\0';
	while (n && buf[n - 1] == ' ')
		buf[--n] = '\0';
	return 0;
}

int hd_sysfs_write(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	size_t n = strlen(value);
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, value, n) != (ssize_t)n)
		rc = errno ? -errno : -EIO;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	return rc;
}

/* The device's directory, or with up = 1 its parent's (a partition's disk). */
static int disk_dir(dev_t rdev, int up, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/dev/block/%u:%u%s", root(), major(rdev), minor(rdev), up ? "/.." : "");

	return n > 0 && (size_t)n < len ? 0 : -ENAMETOOLONG;
}

int hd_sysfs_disk_attr_path(dev_t rdev, const char *attr, char *buf, size_t len)
{
	char dir[400];

	for (int up = 0; up < 2; up++) {
		if (disk_dir(rdev, up, dir, sizeof(dir)))
			return -ENAMETOOLONG;
		if ((size_t)snprintf(buf, len, "%s/%s", dir, attr) >= len)
			return -ENAMETOOLONG;
		if (access(buf, F_OK) == 0)
			return 0;
	}
	return -ENOENT;
}

int hd_sysfs_disk_attr(dev_t rdev, const char *attr, char *buf, size_t len)
{
	char path[512], dir[400];
	int rc = -ENOENT;

	for (int up = 0; up < 2; up++) {
		if (disk_dir(rdev, up, dir, sizeof(dir)))
			return -ENAMETOOLONG;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, attr) >= sizeof(path))
			return -ENAMETOOLONG;
		rc = hd_sysfs_read(path, buf, len);
		if (rc == 0)
			return 0;
	}
	return rc;
}

const char *hd_sysfs_cache_type_path(dev_t rdev, char *buf, size_t len)
{
	char dir[400], sd[480];

	for (int up = 0; up < 2; up++) {
		DIR *dp;
		struct dirent *e;

		if (disk_dir(rdev, up, dir, sizeof(dir)))
			return NULL;
		if ((size_t)snprintf(sd, sizeof(sd), "%s/device/scsi_disk", dir) >= sizeof(sd))
			return NULL;
		dp = opendir(sd);
		if (!dp)
			continue;
		while ((e = readdir(dp))) {
			if (e->d_name[0] == '.')
				continue;
			if ((size_t)snprintf(buf, len, "%s/%s/cache_type", sd, e->d_name) < len &&
			    access(buf, F_OK) == 0) {
				closedir(dp);
				return buf;
			}
		}
		closedir(dp);
	}
	return NULL;
}
