// SPDX-License-Identifier: MIT
#include "util/boundedfile.h"

#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pd {

namespace {

QString kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return QStringLiteral("a directory");
    if (S_ISFIFO(mode))
        return QStringLiteral("a FIFO");
    if (S_ISCHR(mode))
        return QStringLiteral("a character device");
    if (S_ISBLK(mode))
        return QStringLiteral("a block device");
    if (S_ISSOCK(mode))
        return QStringLiteral("a socket");
    return QStringLiteral("not a plain file");
}

QString megabytes(qint64 bytes)
{
    return QStringLiteral("%1 MB").arg(double(bytes) / (1024.0 * 1024.0), 0, 'f', 1);
}

} // namespace

BoundedFile readBoundedRegularFile(const QString &path, qint64 maxBytes)
{
    BoundedFile out;
    const QByteArray native = QFile::encodeName(path);
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one; the type is
    // then checked on what was opened (fstat), so a file swapped for a FIFO after a check cannot block.
    const int fd = ::open(native.constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    auto refuse = [&out, &path](BoundedFile::Problem problem, const QString &reason) {
        out.problem = problem;
        out.reason = reason;
        out.error = QStringLiteral("%1: %2").arg(path, reason);
        out.bytes.clear();
    };
    if (fd < 0) {
        refuse(BoundedFile::Problem::CannotOpen, QString::fromLocal8Bit(std::strerror(errno)));
        return out;
    }
    struct stat st { };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        refuse(BoundedFile::Problem::NotRegular, QStringLiteral("not a regular file (%1)").arg(kindOf(st.st_mode)));
        ::close(fd);
        return out;
    }
    out.size = st.st_size;
    if (st.st_size > maxBytes) {
        refuse(BoundedFile::Problem::TooLarge,
            QStringLiteral("%1, more than the %2 such a file may have")
                .arg(megabytes(st.st_size), megabytes(maxBytes)));
        ::close(fd);
        return out;
    }
    // Read to the end, never past the bound (a file that grows while read is cut off and refused).
    out.bytes.resize(qsizetype(st.st_size) + 1);
    qint64 got = 0;
    while (got < out.bytes.size()) {
        const ssize_t n = ::read(fd, out.bytes.data() + got, size_t(out.bytes.size() - got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            refuse(BoundedFile::Problem::CannotRead, QString::fromLocal8Bit(std::strerror(errno)));
            break;
        }
        if (n == 0)
            break;
        got += n;
        if (got > maxBytes) {
            refuse(BoundedFile::Problem::TooLarge,
                QStringLiteral("grew past %1 while it was read").arg(megabytes(maxBytes)));
            break;
        }
    }
    ::close(fd);
    if (out.ok())
        out.bytes.resize(qsizetype(got));
    return out;
}

} // namespace pd
