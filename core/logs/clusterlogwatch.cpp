// SPDX-License-Identifier: MIT
#include "logs/clusterlogwatch.h"

#include "exec/shellarg.h"

#include <ctime>

namespace pd {

namespace {

double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

constexpr QByteArrayView kWatchHeader = "@@PDLOG ";
constexpr qsizetype kMaxWatchLineBytes = 64 * 1024;

} // namespace

ClusterLogWatch::ClusterLogWatch(CommandRunner *runner, ClusterLogWatchOptions options, QObject *parent)
    : QObject(parent)
    , m_runner(runner)
    , m_options(options)
{
    m_pool.setMaxThreadCount(std::max(1, options.parallelNodes));
}

ClusterLogWatch::~ClusterLogWatch()
{
    ++m_generation;
    m_pool.clear();
    m_pool.waitForDone();
}

QByteArray ClusterLogWatch::readCommand(const QList<QPair<QString, qint64>> &logs, qint64 maxBytes, qint64 firstReadBytes)
{
    // Per log: "@@PDLOG <i> missing", or "@@PDLOG <i> <size> <start> <n>[ truncated]", then exactly n
    // bytes and a newline. n is fixed before the read, so a log written meanwhile cannot break the frame.
    QByteArray c = "r() { if [ ! -r \"$1\" ]; then echo \"@@PDLOG $3 missing\"; return; fi; "
                   "s=$(wc -c <\"$1\"); s=$((s + 0)); o=$2; t=; "
                   "[ \"$o\" -lt 0 ] && o=$(( s > " + QByteArray::number(firstReadBytes) + " ? s - "
        + QByteArray::number(firstReadBytes) + " : 0 )); "
                   "[ \"$s\" -lt \"$o\" ] && { o=0; t=' truncated'; }; "
                   "n=$((s - o)); [ \"$n\" -gt " + QByteArray::number(maxBytes) + " ] && n=" + QByteArray::number(maxBytes) + "; "
                   "echo \"@@PDLOG $3 $s $o $n$t\"; tail -c +$((o + 1)) \"$1\" | head -c \"$n\"; echo; }; ";
    for (qsizetype i = 0; i < logs.size(); ++i)
        c += "r " + shellArg(logs.at(i).first) + ' ' + QByteArray::number(logs.at(i).second) + ' ' + QByteArray::number(i) + "; ";
    return c;
}

bool ClusterLogWatch::parseAnswer(const QByteArray &out, QList<LogChunk> *chunks)
{
    qsizetype pos = 0;
    while (pos < out.size()) {
        if (!QByteArrayView(out).sliced(pos).startsWith(kWatchHeader))
            return false;
        const qsizetype eol = out.indexOf('\n', pos);
        if (eol < 0)
            return false;
        const QList<QByteArray> words = out.mid(pos + kWatchHeader.size(), eol - pos - kWatchHeader.size()).split(' ');
        LogChunk chunk;
        bool ok = false;
        chunk.index = words.value(0).toInt(&ok);
        if (!ok)
            return false;
        pos = eol + 1;
        if (words.value(1) == "missing") {
            chunk.missing = true;
            chunks->append(chunk);
            continue;
        }
        bool a = false, b = false, c = false;
        chunk.size = words.value(1).toLongLong(&a);
        chunk.start = words.value(2).toLongLong(&b);
        const qint64 n = words.value(3).toLongLong(&c);
        chunk.truncated = words.value(4) == "truncated";
        if (!a || !b || !c || n < 0 || pos + n >= out.size() || out.at(pos + n) != '\n')
            return false; // fewer bytes than announced (the file shrank during the read): not trusted
        chunk.bytes = out.mid(pos, n);
        pos += n + 1;
        chunks->append(chunk);
    }
    return true;
}

void ClusterLogWatch::setLogs(const QList<WatchedLog> &logs)
{
    ++m_generation;
    for (Node &n : m_nodes)
        delete n.timer;
    m_nodes.clear();
    m_logs.clear();
    QHash<QString, int> nodeOf;
    for (const WatchedLog &w : logs) {
        if (w.path.isEmpty())
            continue;
        Log log;
        log.watched = w;
        m_logs.append(log);
        const QString key = w.target.node + QLatin1Char('\n') + w.target.host;
        int n = nodeOf.value(key, -1);
        if (n < 0) {
            n = int(m_nodes.size());
            nodeOf.insert(key, n);
            Node node;
            node.key = w.target.node;
            node.target = w.target;
            node.timer = new QTimer(this);
            node.timer->setSingleShot(true);
            connect(node.timer, &QTimer::timeout, this, [this, n] { read(n); });
            m_nodes.append(node);
        }
        m_nodes[n].logs.append(int(m_logs.size() - 1));
    }
    if (m_running)
        readAllNow();
}

void ClusterLogWatch::setLogPath(int engine, const QString &path)
{
    for (Log &log : m_logs) {
        if (log.watched.engine == engine && log.watched.path != path) {
            log.watched.path = path;
            log.offset = -1;
            log.partial.clear();
        }
    }
}

void ClusterLogWatch::start()
{
    m_running = true;
    readAllNow();
}

void ClusterLogWatch::stop()
{
    m_running = false;
    for (Node &n : m_nodes)
        n.timer->stop();
}

void ClusterLogWatch::readAllNow()
{
    for (int n = 0; n < m_nodes.size(); ++n)
        read(n);
}

void ClusterLogWatch::read(int n)
{
    Node &node = m_nodes[n];
    if (node.inFlight || node.logs.isEmpty())
        return;
    node.timer->stop();
    node.inFlight = true;
    QList<QPair<QString, qint64>> files;
    for (int l : std::as_const(node.logs))
        files.append({m_logs.at(l).watched.path, m_logs.at(l).offset});
    const QByteArray command = readCommand(files, m_options.maxBytesPerLog, m_options.firstReadBytes);
    const int generation = m_generation;
    CommandRunner *runner = m_runner;
    const CommandTarget target = node.target;
    const auto timeout = m_options.commandTimeout;
    m_pool.start([this, n, generation, command, runner, target, timeout] {
        const CommandResult r = runner->run(target, command, timeout);
        QMetaObject::invokeMethod(this, [this, n, generation, r] { applied(n, generation, r); }, Qt::QueuedConnection);
    });
}

void ClusterLogWatch::applied(int n, int generation, const CommandResult &r)
{
    if (generation != m_generation || n >= m_nodes.size())
        return;
    const double cpu0 = threadCpuMs();
    struct Account {
        double start;
        double *total;
        ~Account() { *total += threadCpuMs() - start; }
    } account{cpu0, &m_applyCpuMs};
    Node &node = m_nodes[n];
    node.inFlight = false;
    QList<LogChunk> chunks;
    QString error;
    if (!r.ok())
        error = !r.error.isEmpty() ? r.error
            : r.timedOut          ? QStringLiteral("%1: reading the engines' logs timed out").arg(node.key)
                                  : QStringLiteral("%1: %2").arg(node.key, QString::fromUtf8(r.err).trimmed());
    else if (!parseAnswer(r.out, &chunks))
        error = QStringLiteral("%1: the log read's answer is not framed as asked (a log shrank while read?)").arg(node.key);
    if (!error.isEmpty()) {
        Q_EMIT nodeFailed(node.key, error);
        if (m_running)
            node.timer->start(m_options.interval * 3); // back off while the node is down
        return;
    }
    ++m_reads;
    for (const LogChunk &chunk : std::as_const(chunks)) {
        if (chunk.index < 0 || chunk.index >= node.logs.size())
            continue;
        Log &log = m_logs[node.logs.at(chunk.index)];
        if (chunk.missing) {
            log.offset = -1; // not written yet (or rotated away): the next read starts at its end
            continue;
        }
        m_bytesRead += chunk.bytes.size();
        consume(log, chunk);
    }
    Q_EMIT nodeRead(node.key);
    if (m_running)
        node.timer->start(m_options.interval);
}

void ClusterLogWatch::consume(Log &log, const LogChunk &chunk)
{
    const bool firstRead = log.offset < 0;
    if (chunk.truncated || chunk.start != log.offset) {
        log.partial.clear();
        log.partialOffset = chunk.start;
    }
    log.offset = chunk.start + chunk.bytes.size();
    if (log.partial.isEmpty())
        log.partialOffset = chunk.start;
    log.partial += chunk.bytes;
    // A first read starts mid-file: its first line is a fragment, never matched.
    qsizetype pos = firstRead && chunk.start > 0 ? log.partial.indexOf('\n') + 1 : 0;
    if (pos <= 0 && firstRead && chunk.start > 0) {
        log.partial.clear();
        return;
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    while (true) {
        qsizetype eol = log.partial.indexOf('\n', pos);
        if (eol < 0) {
            if (log.partial.size() - pos <= kMaxWatchLineBytes)
                break;
            eol = pos + kMaxWatchLineBytes; // a runaway line is cut
        }
        QByteArrayView bytes(log.partial.constData() + pos, eol - pos);
        const qint64 lineOffset = log.partialOffset + pos;
        pos = eol + (eol < log.partial.size() && log.partial.at(eol) == '\n' ? 1 : 0);
        const int signature = m_matcher.match(bytes);
        if (signature <= 0)
            continue;
        const QDateTime last = log.lastEvent.value(signature);
        if (last.isValid() && last.secsTo(now) < m_options.foldWindow.count())
            continue;
        log.lastEvent.insert(signature, now);
        DiagnosisEvent e;
        e.node = log.watched.target.node;
        e.engine = log.watched.engineId;
        e.logPath = log.watched.path;
        e.time = now;
        e.signatureId = signature;
        e.offset = lineOffset;
        e.line = QString::fromUtf8(bytes.endsWith('\r') ? bytes.chopped(1) : bytes).left(2000);
        Q_EMIT diagnosed(log.watched.engine, e);
    }
    log.partialOffset += pos;
    log.partial.remove(0, pos);
}

} // namespace pd
