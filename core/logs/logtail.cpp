// SPDX-License-Identifier: MIT
#include "logs/logtail.h"

#include "exec/shellarg.h"

namespace pd {

namespace {
const QByteArray kTailHeader = "@@PDTAIL ";
constexpr qsizetype kMaxTailLineBytes = 64 * 1024; // a "line" longer than this is cut (binary junk in a log)
} // namespace

LogTail::LogTail(CommandRunner *runner, const CommandTarget &target, const QString &path, const LogTailOptions &options,
    QObject *parent)
    : QObject(parent)
    , m_runner(runner)
    , m_target(target)
    , m_path(path)
    , m_options(options)
    , m_model(options.maxLines)
{
    m_pool.setMaxThreadCount(1);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &LogTail::pollNow);
}

LogTail::~LogTail()
{
    ++m_generation;
    m_pool.waitForDone();
}

QByteArray LogTail::pollCommand(const QString &path, qint64 offset, qint64 backlog, qint64 maxChunk)
{
    // Prints "@@PDTAIL <size> <start>" then the bytes [start, start+maxChunk). offset < 0: start at the
    // backlog; a file smaller than offset: "@@PDTAIL truncated <size>" first and start at 0.
    QByteArray c;
    c += "f=" + shellArg(path) + "; ";
    c += "[ -r \"$f\" ] || { echo \"cannot read $f\" >&2; exit 2; }; ";
    c += "s=$(wc -c <\"$f\") || exit 3; s=$((s + 0)); o=" + QByteArray::number(offset) + "; ";
    if (backlog < 0)
        c += "[ \"$o\" -lt 0 ] && o=0; ";
    else
        c += "[ \"$o\" -lt 0 ] && o=$(( s > " + QByteArray::number(backlog) + " ? s - " + QByteArray::number(backlog)
            + " : 0 )); ";
    c += "[ \"$s\" -lt \"$o\" ] && { echo \"" + kTailHeader + "truncated $s\"; o=0; }; ";
    c += "echo \"" + kTailHeader + "$s $o\"; ";
    c += "tail -c +$((o + 1)) \"$f\" | head -c " + QByteArray::number(maxChunk);
    return c;
}

void LogTail::start()
{
    m_started = true;
    m_paused = false;
    pollNow();
}

void LogTail::pause()
{
    m_paused = true;
    m_timer.stop();
}

void LogTail::resume()
{
    if (!m_started)
        return start();
    m_paused = false;
    pollNow();
}

void LogTail::schedule(std::chrono::milliseconds delay)
{
    if (m_started && !m_paused)
        m_timer.start(delay);
}

void LogTail::pollNow()
{
    if (m_inFlight || !m_started)
        return;
    m_inFlight = true;
    m_timer.stop();
    const int generation = m_generation;
    const QByteArray command = pollCommand(m_path, m_offset, m_options.backlogBytes, m_options.maxChunkBytes);
    CommandRunner *runner = m_runner;
    const CommandTarget target = m_target;
    const auto timeout = m_options.commandTimeout;
    m_pool.start([this, generation, command, runner, target, timeout] {
        const CommandResult r = runner->run(target, command, timeout);
        QMetaObject::invokeMethod(
            this, [this, generation, r] { onResult(generation, r); }, Qt::QueuedConnection);
    });
}

void LogTail::onResult(int generation, const CommandResult &r)
{
    m_inFlight = false;
    if (generation != m_generation)
        return;
    if (!r.ok()) {
        m_lastError = !r.error.isEmpty() ? r.error
            : r.timedOut                 ? QStringLiteral("%1: reading %2 timed out").arg(m_target.node, m_path)
                         : QStringLiteral("%1: %2").arg(m_target.node, QString::fromUtf8(r.err).trimmed());
        Q_EMIT failed(m_lastError);
        schedule(m_options.pollInterval * 5); // back off while the node or file is missing
        return;
    }
    m_lastError.clear();
    qsizetype pos = 0;
    qint64 size = -1;
    qint64 start = -1;
    while (pos < r.out.size() && r.out.mid(pos, kTailHeader.size()) == kTailHeader) {
        const qsizetype eol = r.out.indexOf('\n', pos);
        if (eol < 0)
            break;
        const QList<QByteArray> words = r.out.mid(pos + kTailHeader.size(), eol - pos - kTailHeader.size()).split(' ');
        pos = eol + 1;
        if (words.value(0) == "truncated") {
            m_partial.clear();
            m_skipFirstPartialLine = false;
            Q_EMIT truncated(words.value(1).toLongLong());
            continue;
        }
        size = words.value(0).toLongLong();
        start = words.value(1).toLongLong();
        break;
    }
    if (size < 0 || start < 0) {
        m_lastError = QStringLiteral("%1: unexpected answer while reading %2").arg(m_target.node, m_path);
        Q_EMIT failed(m_lastError);
        schedule(m_options.pollInterval * 5);
        return;
    }
    if (m_offset < 0 && start > 0)
        m_skipFirstPartialLine = true; // the backlog starts mid-line
    const QByteArray data = r.out.mid(pos);
    consume(start, data);
    m_offset = start + data.size();
    Q_EMIT polled(m_offset, size);
    // Behind by more than one chunk: catch up at once; otherwise wait for new lines.
    schedule(m_offset < size ? std::chrono::milliseconds(0) : m_options.pollInterval);
}

void LogTail::consume(qint64 start, const QByteArray &data)
{
    if (data.isEmpty())
        return;
    if (m_partial.isEmpty())
        m_partialOffset = start;
    m_partial += data;
    QList<LogLine> lines;
    qsizetype pos = 0;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    while (true) {
        qsizetype eol = m_partial.indexOf('\n', pos);
        if (eol < 0) {
            if (m_partial.size() - pos <= kMaxTailLineBytes)
                break;
            eol = pos + kMaxTailLineBytes; // cut a runaway line
        }
        QByteArrayView bytes(m_partial.constData() + pos, eol - pos);
        if (bytes.endsWith('\r'))
            bytes.chop(1);
        const qint64 lineOffset = m_partialOffset + pos;
        const bool skip = m_skipFirstPartialLine;
        m_skipFirstPartialLine = false;
        pos = eol + (eol < m_partial.size() && m_partial.at(eol) == '\n' ? 1 : 0);
        if (skip)
            continue;
        LogLine line;
        line.offset = lineOffset;
        line.text = QString::fromUtf8(bytes);
        line.cls = m_matcher.classify(bytes);
        if (line.cls.signatureId > 0) {
            const QDateTime last = m_lastEvent.value(line.cls.signatureId);
            if (!last.isValid() || last.secsTo(now) >= m_options.foldWindow.count()) {
                m_lastEvent.insert(line.cls.signatureId, now);
                DiagnosisEvent e;
                e.node = m_target.node;
                e.engine = m_engine;
                e.logPath = m_path;
                e.time = now;
                e.signatureId = line.cls.signatureId;
                e.offset = lineOffset;
                e.line = line.text.left(2000);
                Q_EMIT diagnosed(e);
            }
        }
        lines.append(line);
    }
    m_partialOffset += pos;
    m_partial.remove(0, pos);
    m_model.appendLines(lines);
}

} // namespace pd
