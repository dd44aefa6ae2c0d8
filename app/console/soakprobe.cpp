// SPDX-License-Identifier: MIT
#include "soakprobe.h"

#include "monitoring.h"

#include "cluster/clusterstore.h"
#include "metrics/seriesstore.h"
#include "state/statetracker.h"

#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QEvent>
#include <QTextStream>

#include <algorithm>

#include <unistd.h>

namespace {

constexpr int kTickMs = 5; // the stall probe: how late this timer fires is how long the loop was busy
constexpr int kSampleMs = 10000; // one samples.csv line
constexpr double kLongStallMs = 50; // a stall this long is also an event, with its end time, to find its cause

qint64 residentKiB()
{
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    if (fields.size() < 2)
        return -1;
    return fields.at(1).toLongLong() * (sysconf(_SC_PAGESIZE) / 1024);
}

QString csvField(QString text)
{
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')))
        return QLatin1Char('"') + text.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
    return text;
}

} // namespace

void SoakProbe::installIfAsked(pd::ClusterStore *store, pd::StateTracker *tracker, Monitoring *monitoring)
{
    const QString dir = qEnvironmentVariable("PDCONSOLE_SOAK_DIR");
    if (dir.isEmpty())
        return;
    new SoakProbe(dir, store, tracker, monitoring);
}

SoakProbe::SoakProbe(const QString &dir, pd::ClusterStore *store, pd::StateTracker *tracker, Monitoring *monitoring)
    : QObject(qApp)
    , m_store(store)
    , m_tracker(tracker)
    , m_monitoring(monitoring)
    , m_samples(QDir(dir).filePath(QStringLiteral("samples.csv")))
    , m_events(QDir(dir).filePath(QStringLiteral("events.csv")))
{
    QDir().mkpath(dir);
    if (!m_samples.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || !m_events.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        QTextStream(stderr) << "pdconsole: the soak probe cannot write under " << dir << '\n';
        return;
    }
    m_samples.write("wall_ms,rss_kib,series_bytes,stall_max_ms,polls_ok,polls_failed,serving\n");
    m_events.write("wall_ms,kind,subject,detail\n");
    connect(store, &pd::ClusterStore::enginesObserved, this, &SoakProbe::observed);
    connect(tracker, &pd::StateTracker::statesChanged, this, &SoakProbe::statesChanged);
    connect(tracker, &pd::StateTracker::proxyChanged, this, &SoakProbe::proxyChanged);
    m_tick.setTimerType(Qt::PreciseTimer);
    connect(&m_tick, &QTimer::timeout, this, &SoakProbe::tick);
    connect(&m_sampleTimer, &QTimer::timeout, this, &SoakProbe::sample);
    m_sampleTimer.start(kSampleMs);
    // Stalls count from the window's first frame on; the time until then is start-up, which
    // bench_startup judges. It is written to events.csv, so the soak still shows it.
    m_sinceInstall.start();
    qApp->installEventFilter(this);
}

bool SoakProbe::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Paint && watched->isWidgetType()) {
        qApp->removeEventFilter(this);
        // Queued: the paint pass this event belongs to is finished before the stall clock starts.
        QTimer::singleShot(0, this, [this] {
            this->event(QStringLiteral("startup,first-paint,%1").arg(m_sinceInstall.elapsed()));
            m_tick.start(kTickMs);
            m_sinceTick.start();
        });
    }
    return false;
}

void SoakProbe::tick()
{
    const double late = double(m_sinceTick.nsecsElapsed()) / 1e6 - kTickMs;
    m_sinceTick.restart();
    m_stallMaxMs = std::max(m_stallMaxMs, late);
    if (late > kLongStallMs)
        event(QStringLiteral("stall,gui,%1").arg(late, 0, 'f', 1));
}

void SoakProbe::sample()
{
    const pd::SeriesStore *series = m_monitoring->seriesStore();
    std::size_t seriesBytes = 0;
    if (series) {
        const pd::StoreMemory memory = series->memory();
        seriesBytes = memory.ringBytes + memory.stateBytes;
    }
    const int serving = m_tracker->stateCounts()[std::size_t(pd::EngineState::Serving)];
    QTextStream(&m_samples) << QDateTime::currentMSecsSinceEpoch() << ',' << residentKiB() << ',' << seriesBytes << ','
                            << QString::number(m_stallMaxMs, 'f', 1) << ',' << m_pollsOk << ',' << m_pollsFailed << ','
                            << serving << '\n';
    m_samples.flush();
    m_events.flush();
    m_stallMaxMs = 0;
    m_pollsOk = 0;
    m_pollsFailed = 0;
}

void SoakProbe::observed(const QList<int> &engines)
{
    const QList<pd::EngineObservation> &observations = m_store->observations();
    for (const int i : engines) {
        if (i < 0 || i >= observations.size())
            continue;
        const pd::PollOutcome &last = observations.at(i).last;
        if (last.status == pd::PollStatus::Ok) {
            ++m_pollsOk;
            continue;
        }
        ++m_pollsFailed;
        event(QStringLiteral("poll-failed,%1,%2").arg(m_store->engines().at(i).id(), csvField(last.error)));
    }
}

void SoakProbe::statesChanged(const QList<int> &engines)
{
    const pd::StateTracker *tracker = m_tracker;
    for (const int i : engines) {
        if (i < m_store->engines().size())
            event(QStringLiteral("state,%1,%2")
                      .arg(m_store->engines().at(i).id(), pd::engineStateName(tracker->state(i))));
    }
}

void SoakProbe::proxyChanged()
{
    const int reachable = m_tracker->proxyHealth().reachable ? 1 : 0;
    if (reachable == m_proxyReachable)
        return;
    m_proxyReachable = reachable;
    event(QStringLiteral("proxy,%1,").arg(reachable ? QStringLiteral("reachable") : QStringLiteral("unreachable")));
}

void SoakProbe::event(const QString &line)
{
    m_events.write(QByteArray::number(QDateTime::currentMSecsSinceEpoch()) + ',' + line.toUtf8() + '\n');
}
