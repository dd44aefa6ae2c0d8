// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QListView;
class QPushButton;
class QSortFilterProxyModel;
class QTextBrowser;

// Live tail of one log: follow (keep the newest line in view), pause (stop polling, nothing is lost),
// search forward/backward, jump to the first error; lines with a known signature are highlighted and
// the side panel shows the selected (or first) one's diagnosis and fix.
namespace pd {

class LogTail;

class LogView final : public QWidget {
    Q_OBJECT
public:
    explicit LogView(QWidget *parent = nullptr);

    void setTail(LogTail *tail); // not owned; null detaches

    bool isFollowing() const;
    void setFollowing(bool follow);
    void setPaused(bool paused);
    bool search(const QString &text, bool backwards = false); // selects the next match; false: none
    bool jumpToFirstError();
    bool jumpToNextError();

    QListView *view() const { return m_view; }
    QString diagnosisText() const;
    QString statusText() const;
    int currentRow() const; // a row of the tail's model (hidden lines included)
    // Hide the console's own polls (/healthcheck, /metrics, /health, /v1/models access lines); on by default.
    void setHidePolls(bool hide);
    bool hidesPolls() const;
    int visibleRows() const;

private:
    void onRowsInserted();
    void select(int row);
    void showDiagnosis(int row);
    void updateStatus();

    LogTail *m_tail = nullptr;
    QListView *m_view;
    QSortFilterProxyModel *m_filter;
    QCheckBox *m_follow;
    QCheckBox *m_hidePolls;
    QPushButton *m_pause;
    QLineEdit *m_search;
    QPushButton *m_next;
    QPushButton *m_prev;
    QPushButton *m_firstError;
    QPushButton *m_nextError;
    QLabel *m_status;
    QTextBrowser *m_diagnosis;
    QList<QMetaObject::Connection> m_connections;
};

} // namespace pd
