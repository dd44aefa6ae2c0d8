<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ClusterTools</name>
    <message>
        <location filename="../../app/console/clustertools.cpp" line="+35"/>
        <source>&amp;Logs</source>
        <translation>日志(&amp;L)</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>&amp;Node checks</source>
        <translation>节点检查(&amp;N)</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>proxy %1:%2</source>
        <translation>代理 %1:%2</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>The proxy has no log the console can follow (the profile names no proxy script)</source>
        <translation>代理没有可供控制台跟踪的日志（配置文件未指定代理脚本）</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>node checks on every node</source>
        <translation>在所有节点上运行节点检查</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>node checks</source>
        <translation>节点检查</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>unreachable: %1</source>
        <translation>不可达：%1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>NPU %1 %2: %3</source>
        <translation>NPU %1 %2：%3</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>node checks failed: %1</source>
        <translation>节点检查失败：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>known error</source>
        <translation>已知错误</translation>
    </message>
</context>
<context>
    <name>DemoCluster</name>
    <message>
        <location filename="../../app/console/democluster.cpp" line="+59"/>
        <source>the simulated cluster exited (status %1): %2</source>
        <translation>模拟集群已退出（状态 %1）：%2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>cannot start pdsim: %1</source>
        <translation>无法启动 pdsim：%1</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>pdsim was not found next to pdconsole, in the build tree, or on PATH</source>
        <translation>在 pdconsole 所在目录、构建目录和 PATH 中均未找到 pdsim</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>cannot create a temporary directory: %1</source>
        <translation>无法创建临时目录：%1</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: offset %2: %3</source>
        <translation>%1：偏移 %2：%3</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>Monitoring</name>
    <message>
        <location filename="../../app/console/monitoring.cpp" line="+187"/>
        <source>Prometheus: no data</source>
        <translation>Prometheus：无数据</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>Series of %n target(s) that are no engine of this cluster: %1</source>
        <translation>
            <numerusform>以下 %n 个目标有序列，但不是本集群的引擎：%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+12"/>
        <source>%n engine(s) Prometheus does not scrape: %1</source>
        <translation>
            <numerusform>Prometheus 未抓取的 %n 个引擎：%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n engine(s) with an unknown metric generation: %1</source>
        <translation>
            <numerusform>%n 个引擎的指标命名版本未知：%1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Prometheus: %1 engines (%2 on vLLM 0.9.1 names, %3 on current names), history backfilled in %4 s, refreshed every scrape (%5 s)</source>
        <translation>Prometheus：%1 个引擎（%2 个使用 vLLM 0.9.1 指标名，%3 个使用当前指标名），历史数据回填用时 %4 秒，每次抓取时刷新（%5 秒）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Prometheus: some engines are not seen</source>
        <translation>Prometheus：部分引擎不可见</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Prometheus: reading the last hour of history…</source>
        <translation>Prometheus：正在读取最近一小时的历史数据…</translation>
    </message>
</context>
<context>
    <name>Operations</name>
    <message>
        <location filename="../../app/console/operations.cpp" line="+339"/>
        <source>&amp;Operations</source>
        <translation>操作(&amp;O)</translation>
    </message>
    <message>
        <location line="+100"/>
        <source>proxy %1 done</source>
        <translation>代理操作 %1 已完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>proxy %1 failed</source>
        <translation>代理操作 %1 失败</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>%1 started</source>
        <translation>%1 已开始</translation>
    </message>
    <message>
        <location line="+125"/>
        <source>The console is in read-only mode</source>
        <translation>控制台处于只读模式</translation>
    </message>
    <message>
        <location line="-488"/>
        <source>Operations are running</source>
        <translation>有操作正在运行</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n operation(s) still run: %1.

To %2 they are cancelled where they stand: an engine may be left started but not added, or out of the proxy but not stopped. Each is recorded in the audit log as cancelled.</source>
        <translation>
            <numerusform>仍有 %n 个操作在运行：%1。

要%2，这些操作会在当前位置被取消：某个引擎可能已启动但未加入代理，或已移出代理但未停止。每个操作都会以“已取消”记录到审计日志中。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Wait for them, then %1</source>
        <translation>等待它们结束，然后%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel them and %1</source>
        <translation>取消它们并%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stay</source>
        <translation>留下</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>Waiting for %n operation(s) to end, then: %1</source>
        <translation>
            <numerusform>正在等待 %n 个操作结束，然后：%1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+103"/>
        <source>Membership journal not read: %1</source>
        <translation>未读取成员日志：%1</translation>
    </message>
    <message numerus="yes">
        <location line="+71"/>
        <source>The profile has %n error(s): every change to the cluster is refused until it validates (Cluster ▸ Validate Profile, F7)</source>
        <translation>
            <numerusform>配置文件有 %n 个错误：在校验通过之前，拒绝对集群的一切更改（集群 ▸ 校验配置文件，F7）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+42"/>
        <source>%1, by %2</source>
        <translation>%1，由 %2 执行</translation>
    </message>
    <message>
        <location line="+103"/>
        <source>Audit log not written, changes refused until acknowledged (Operations tab): %1</source>
        <translation>审计日志写入失败，确认前拒绝一切变更（运维页）：%1</translation>
    </message>
    <message numerus="yes">
        <location line="+15"/>
        <source>Restart: %n engine(s), one at a time; progress on the Operations tab</source>
        <translation>
            <numerusform>重启：%n 个引擎，逐个进行；进度见“操作”页</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Restart %1 of %2: %3</source>
        <translation>重启 %1/%2：%3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Restart paused</source>
        <translation>重启已暂停</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Resume or cancel it on the Operations tab.</source>
        <translation>请在“操作”页继续或取消。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Restart finished: %1 of %2 engine(s) restarted</source>
        <translation>重启完成：已重启 %1/%2 个引擎</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>No DP group %1 in this profile</source>
        <translation>此配置文件中没有 DP 组 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>DP group %1</source>
        <translation>DP 组 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>dead instances</source>
        <translation>失效实例</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Read-only: every change to the cluster is refused</source>
        <translation>只读：拒绝对集群的任何更改</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Read-only off</source>
        <translation>已关闭只读模式</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>Auto-eject removed %1 from the proxy: %2</source>
        <translation>自动摘除：已将 %1 从代理移除：%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Auto-eject added %1 back to the proxy: it serves again</source>
        <translation>自动摘除：%1 已恢复服务，重新加入代理</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Auto-heal restarts %1 as one group</source>
        <translation>自动修复：将 %1 作为一个整组重启</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Auto-heal: %1 serves again and is routed</source>
        <translation>自动修复：%1 已恢复服务并重新接入路由</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Auto-heal could not bring back %1</source>
        <translation>自动修复未能恢复 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Auto-eject could not change %1</source>
        <translation>自动摘除：无法变更 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Auto-eject: %1</source>
        <translation>自动摘除：%1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The profile has validation errors: fix them first</source>
        <translation>配置文件有校验错误：请先修正</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Proxy %1:%2</source>
        <translation>代理 %1:%2</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>A proxy action is running</source>
        <translation>代理操作正在进行</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Show log</source>
        <translation>显示日志</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <location filename="../../app/console/consoleassembly.cpp" line="+52"/>
        <source>Preferences stored in %1</source>
        <translation>首选项已保存到 %1</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>Starting the simulated cluster (pdsim)…</source>
        <translation>正在启动模拟集群（pdsim）…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Demo: simulated cluster with %1 engines ready, proxy %2, background load 4 req/s</source>
        <translation>演示：模拟集群已就绪，共 %1 个引擎，代理 %2，后台负载 4 req/s</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Demo: %1 engines serving, proxy %2, background load 4 req/s; not started: %3 (scale the pool to start it as a whole group)</source>
        <translation>演示：%1 个引擎正在服务，代理 %2，后台负载 4 请求/秒；未启动：%3（扩容资源池即可将其作为整组启动）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The demo cluster stopped</source>
        <translation>演示集群已停止</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>The demo cluster could not start; showing its profile only</source>
        <translation>演示集群无法启动，仅显示其配置文件</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>The last profile %1 is gone; nothing reopened</source>
        <translation>上次的配置文件 %1 已不存在，未重新打开</translation>
    </message>
    <message>
        <location filename="../../app/console/main.cpp" line="+77"/>
        <source>Settings: %1</source>
        <translation>设置：%1</translation>
    </message>
</context>
<context>
    <name>pd::AuditModel</name>
    <message>
        <location filename="../../core/models/auditmodel.cpp" line="+67"/>
        <source>scale-out</source>
        <comment>audit log word</comment>
        <translation>扩容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>scale-in</source>
        <comment>audit log word</comment>
        <translation>缩容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>start</source>
        <comment>audit log word</comment>
        <translation>启动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stop</source>
        <comment>audit log word</comment>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>group-scale-out</source>
        <comment>audit log word</comment>
        <translation>整组扩容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>group-start</source>
        <comment>audit log word</comment>
        <translation>整组启动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>group-scale-in</source>
        <comment>audit log word</comment>
        <translation>整组缩容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>group-restart</source>
        <comment>audit log word</comment>
        <translation>整组重启</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>scale-in-restart</source>
        <comment>audit log word</comment>
        <translation>缩容（重启代理）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>scale-out-restart</source>
        <comment>audit log word</comment>
        <translation>扩容（重启代理）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>engines</source>
        <comment>audit log word</comment>
        <translation>引擎</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>proxy</source>
        <comment>audit log word</comment>
        <translation>代理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>watch</source>
        <comment>audit log word</comment>
        <translation>看护</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>warmup</source>
        <comment>audit log word</comment>
        <translation>预热</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>restart</source>
        <comment>audit log word</comment>
        <translation>重启</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>eject</source>
        <comment>audit log word</comment>
        <translation>摘除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>readd</source>
        <comment>audit log word</comment>
        <translation>重新加入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>abandoned</source>
        <comment>audit log word</comment>
        <translation>已放弃</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>force-stop</source>
        <comment>audit log word</comment>
        <translation>强制停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>start-and-add</source>
        <comment>audit log word</comment>
        <translation>启动并加入代理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>add-to-proxy</source>
        <comment>audit log word</comment>
        <translation>加入代理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>remove-from-proxy</source>
        <comment>audit log word</comment>
        <translation>移出代理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>restart-group</source>
        <comment>audit log word</comment>
        <translation>重启整组</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>add</source>
        <comment>audit log word</comment>
        <translation>加入代理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>remove</source>
        <comment>audit log word</comment>
        <translation>移出代理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>drain</source>
        <comment>audit log word</comment>
        <translation>排空</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>preflight</source>
        <comment>audit log word</comment>
        <translation>预检</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>restart-proxy</source>
        <comment>audit log word</comment>
        <translation>重启代理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>start-engines</source>
        <comment>audit log word</comment>
        <translation>启动引擎</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>start-engine</source>
        <comment>audit log word</comment>
        <translation>启动引擎</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>start-ranks</source>
        <comment>audit log word</comment>
        <translation>启动各 rank</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stop-engines</source>
        <comment>audit log word</comment>
        <translation>停止引擎</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stop-engine</source>
        <comment>audit log word</comment>
        <translation>停止引擎</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stop-ranks</source>
        <comment>audit log word</comment>
        <translation>停止各 rank</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>verify-stopped</source>
        <comment>audit log word</comment>
        <translation>确认已停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>verify</source>
        <comment>audit log word</comment>
        <translation>验证</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>wait-idle</source>
        <comment>audit log word</comment>
        <translation>等待空闲</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>wait-listed</source>
        <comment>audit log word</comment>
        <translation>等待代理列出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>wait-ready</source>
        <comment>audit log word</comment>
        <translation>等待就绪</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ok</source>
        <comment>audit log word</comment>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed</source>
        <comment>audit log word</comment>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>done</source>
        <comment>audit log word</comment>
        <translation>完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>skipped</source>
        <comment>audit log word</comment>
        <translation>跳过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>refused</source>
        <comment>audit log word</comment>
        <translation>拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cancelled</source>
        <comment>audit log word</comment>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>running</source>
        <comment>audit log word</comment>
        <translation>进行中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pending</source>
        <comment>audit log word</comment>
        <translation>待执行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>succeeded</source>
        <comment>audit log word</comment>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Target</source>
        <translation>对象</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Duration</source>
        <translation>耗时</translation>
    </message>
</context>
<context>
    <name>pd::ClusterPage</name>
    <message>
        <location filename="../../widgets/clusterpage.cpp" line="+65"/>
        <source>Double-click an engine for its charts</source>
        <translation>双击引擎查看其图表</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Filter engines (node, host, port, rank…)</source>
        <translation>筛选引擎（节点、主机、端口、rank…）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Filter engines (%1)</source>
        <translation>筛选引擎（%1）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&lt;b&gt;Nodes&lt;/b&gt; — select nodes to narrow the engine list</source>
        <translation>&lt;b&gt;节点&lt;/b&gt; — 选择节点以缩小引擎列表范围</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;Engines&lt;/b&gt;</source>
        <translation>&lt;b&gt;引擎&lt;/b&gt;</translation>
    </message>
</context>
<context>
    <name>pd::CommandPalette</name>
    <message>
        <location filename="../../widgets/commandpalette.cpp" line="+37"/>
        <source>Command Palette</source>
        <translation>命令面板</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Type a command…</source>
        <translation>输入命令…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <location line="+95"/>
        <source> (on)</source>
        <translation>（开启）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source> (off)</source>
        <translation>（关闭）</translation>
    </message>
</context>
<context>
    <name>pd::EjectionPolicy</name>
    <message>
        <location filename="../../core/watch/ejectionpolicy.cpp" line="+122"/>
        <source>coupled DP group broken</source>
        <translation>耦合 DP 组已断裂</translation>
    </message>
    <message numerus="yes">
        <location line="+19"/>
        <source>serving again for %n poll(s)</source>
        <translation>
            <numerusform>已连续 %n 次轮询恢复服务</numerusform>
        </translation>
    </message>
    <message>
        <location line="+13"/>
        <source>an instance is WAITING in the proxy: removing it now can kill the proxy&apos;s listener (proxy-api.md 8.1)</source>
        <translation>有实例在代理中处于 WAITING 状态：此时移除可能导致代理的监听线程崩溃（proxy-api.md 8.1）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>it holds the last listed instance(s) of the %1 pool</source>
        <translation>它是 %1 池中最后列出的实例</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>rate limit: %1 ejection(s) in the last %2 s already</source>
        <translation>频率限制：最近 %2 秒内已摘除 %1 次</translation>
    </message>
    <message numerus="yes">
        <location line="+11"/>
        <source>%1 for %n poll(s)</source>
        <translation>
            <numerusform>%1，已持续 %n 次轮询</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>pd::EngineActionMenu</name>
    <message>
        <location filename="../../widgets/operations/engineactionmenu.cpp" line="+29"/>
        <source>Start</source>
        <translation>启动</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Start and add to proxy</source>
        <translation>启动并加入代理</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop (drain first when in the proxy)</source>
        <translation>停止（在代理中时先排空）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Force stop (no drain)</source>
        <translation>强制停止（不排空）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Restart</source>
        <translation>重启</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add to proxy</source>
        <translation>加入代理</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Remove from proxy</source>
        <translation>移出代理</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Restart the whole DP group</source>
        <translation>重启整个 DP 组</translation>
    </message>
    <message numerus="yes">
        <location line="+16"/>
        <location line="+57"/>
        <source>%n selected engines</source>
        <translation>
            <numerusform>已选的 %n 个引擎</numerusform>
        </translation>
    </message>
    <message>
        <location line="-51"/>
        <source>Nothing to do: %1</source>
        <translation>无需操作：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: refused, %2</source>
        <translation>%1：已拒绝，%2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1: not started, the last active instance of a pool needs the override</source>
        <translation>%1：未启动，移出池中最后一个活跃实例需要强制覆盖</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1: started; progress in the Operations tab</source>
        <translation>%1：已开始，可在“操作”页查看进度</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The console is in read-only mode</source>
        <translation>控制台处于只读模式</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Show log</source>
        <translation>显示日志</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>Node %1 (%n engines)</source>
        <translation>
            <numerusform>节点 %1（%n 个引擎）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Select its engines</source>
        <translation>选中该节点的引擎</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run node checks</source>
        <translation>运行节点检查</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>node %1</source>
        <translation>节点 %1</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Override: take the last active instance of the pool out (its requests fail until another is active)</source>
        <translation>强制覆盖：移出池中最后一个活跃实例（在有其他实例活跃之前，该池的请求都会失败）</translation>
    </message>
</context>
<context>
    <name>pd::EngineActions</name>
    <message>
        <location filename="../../core/ops/engineactions.cpp" line="+35"/>
        <source>Start</source>
        <translation>启动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Start and add</source>
        <translation>启动并加入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Force stop</source>
        <translation>强制停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restart</source>
        <translation>重启</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add to the proxy</source>
        <translation>加入代理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove from the proxy</source>
        <translation>移出代理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restart whole DP groups:</source>
        <translation>重启整个 DP 组：</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>1 engine</source>
        <translation>1 个引擎</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 engines</source>
        <translation>%1 个引擎</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the console is in read-only mode</source>
        <translation>控制台处于只读模式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the audit log cannot be written: acknowledge the failure in the Operations tab before changing the cluster</source>
        <translation>审计日志无法写入：请先在运维页确认该故障，再变更集群</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>%1 %2</source>
        <comment>plan title: the action, how many engines</comment>
        <translation>%1 %2</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Refused: %1</source>
        <translation>已拒绝：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>- skipped %1: %2</source>
        <translation>- 已跳过 %1：%2</translation>
    </message>
    <message>
        <location line="+257"/>
        <source>A busy proxy removes them only when no request is in flight, and ignores an add until then: if it still drains them %1 s after their removal once they serve again, the proxy is restarted with its current lists (the requests in flight at that moment fail; counted in the audit log)</source>
        <translation>繁忙的代理只有在没有任何请求在途时才会移除它们，在此之前会忽略对它们的添加：如果它们重新服务时，距移除已过 %1 秒而代理仍在排空它们，就会用代理当前的实例列表重启代理（此刻在途的请求会失败；失败数记入审计日志）</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>not a rank of a coupled DP group</source>
        <translation>不是耦合 DP 组的 rank</translation>
    </message>
    <message>
        <location line="-167"/>
        <source>would break DP group %1; stop or restart the whole group, or remove it from the proxy</source>
        <translation>会破坏 DP 组 %1；请停止或重启整个组，或将其从代理中移除</translation>
    </message>
    <message>
        <location line="+12"/>
        <location line="+10"/>
        <source>already active in the proxy</source>
        <translation>已在代理中活跃</translation>
    </message>
    <message>
        <location line="-171"/>
        <source>- This takes the last active instance of a pool out of the proxy: every request to that pool fails until another instance is active. It needs the explicit override.</source>
        <translation>- 这会把某个池最后一个活动实例移出代理：在另一个实例变为活动之前，发往该池的每个请求都会失败。需要明确勾选覆盖。</translation>
    </message>
    <message>
        <location line="+114"/>
        <source>DP group %1 has a rank WAITING in the proxy; wait until it is active or dropped</source>
        <translation>DP 组 %1 有 rank 在代理中处于 WAITING 状态；请等待其变为活动或被丢弃</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>WAITING in the proxy: stopping or re-adding it now can kill the proxy&apos;s listener; wait until it is active or dropped</source>
        <translation>在代理中处于 WAITING 状态：此时停止或重新加入可能导致代理的监听线程崩溃；请等待其变为活动或被丢弃</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>draining: re-adding does not cancel a drain; wait until it left the list</source>
        <translation>正在排空：重新加入不会取消排空；请等待它离开列表</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>not active in the proxy (%1)</source>
        <translation>不在代理中活跃（%1）</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>DP group %1 (%2 ranks): all started at once, waited for with one deadline of %3 s, then left outside the proxy</source>
        <translation>DP 组 %1（%2 个 rank）：同时全部启动，以一个 %3 秒的截止时间等待，然后留在代理之外</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>DP group %1 (%2 ranks): all started at once, waited for with one deadline of %3 s, then all added to the proxy</source>
        <translation>DP 组 %1（%2 个 rank）：同时全部启动，以一个 %3 秒的截止时间等待，然后全部加入代理</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>DP group %1 (%2 ranks) is BROKEN: its ranks produce no tokens, so they are not drained: every rank taken out of the proxy and stopped at once (the requests they hold fail), all started together, waited for with one deadline of %3 s, all added back</source>
        <translation>DP 组 %1（%2 个 rank）已损坏：其 rank 不产生任何 token，因此不做排空：每个 rank 立即移出代理并停止（它们持有的请求会失败），全部一起启动，以同一个 %3 秒的期限等待，然后全部加回</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The group&apos;s ranks hold %1 request(s) now (%2 of %3 ranks scraped): they fail</source>
        <translation>该组的 rank 当前持有 %1 个请求（已抓取 %3 个 rank 中的 %2 个）：这些请求会失败</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>DP group %1 (%2 ranks): every rank taken out of the proxy and drained, then all stopped together</source>
        <translation>DP 组 %1（%2 个 rank）：每个 rank 从代理中移出并排空，然后一起停止</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>DP group %1 (%2 ranks): every rank taken out of the proxy and drained, all stopped (stragglers asked again), all started together, waited for with one deadline of %3 s, all added back</source>
        <translation>DP 组 %1（%2 个 rank）：每个 rank 从代理中移出并排空，全部停止（未停止的再次要求），一起启动，以一个 %3 秒的截止时间等待，全部重新加入</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 loses %2 of %3 instances</source>
        <translation>%1 失去 %3 个实例中的 %2 个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 loses %2 of %3 instances until the group serves again</source>
        <translation>在该组恢复服务之前，%1 失去 %3 个实例中的 %2 个</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 outside the proxy: started and waited for until they answer /v1/models and /health, then left outside the proxy (add them when wanted)</source>
        <translation>%1 不在代理中：启动并等待其响应 /v1/models 和 /health，之后保持在代理之外（需要时再加入）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 not in the proxy: started where not running, waited for, added, and checked to receive traffic</source>
        <translation>%1 不在代理中：未运行的先启动，等待就绪后加入代理，并确认其收到流量</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 active in the proxy: %2</source>
        <translation>%1 在代理中活跃：%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>restarted one at a time (drained out, stopped, started, added back)</source>
        <translation>逐个重启（排空移出、停止、启动、重新加入）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>taken out, drained until no request runs, then stopped</source>
        <translation>移出代理，排空至无请求运行，然后停止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 active in the proxy: taken out and stopped at once, without a drain (their requests in flight fail)</source>
        <translation>%1 在代理中活跃：立即移出并停止，不排空（其在途请求会失败）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 not in the proxy: %2</source>
        <translation>%1 不在代理中：%2</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>stopped and started again</source>
        <translation>停止后重新启动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stopped at once</source>
        <translation>立即停止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 active in the proxy: taken out and drained; the processes keep running</source>
        <translation>%1 在代理中活跃：移出代理并排空；进程继续运行</translation>
    </message>
    <message>
        <location line="+99"/>
        <source>force stop</source>
        <comment>what an engine was stopped by</comment>
        <translation>强制停止</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>restart</source>
        <comment>what an engine was stopped by</comment>
        <translation>重启</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>remove from the proxy</source>
        <comment>what an engine was taken out of the proxy by</comment>
        <translation>移出代理</translation>
    </message>
</context>
<context>
    <name>pd::EngineDetailPanel</name>
    <message>
        <location filename="../../widgets/triageviews/enginedetailpanel.cpp" line="+59"/>
        <source>Generation tokens/s</source>
        <translation>生成 tokens/s</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prompt tokens/s</source>
        <translation>提示词 tokens/s</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Running requests</source>
        <translation>运行中请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Waiting requests</source>
        <translation>等待中请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>KV cache usage</source>
        <translation>KV 缓存使用率</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Inter-token latency p99</source>
        <translation>Token 间时延 p99</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 ago</source>
        <translation>%1前</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>never</source>
        <translation>从未</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Select an engine (in the table or the Problems list) to see its detail.</source>
        <translation>在表格或问题列表中选择一个引擎以查看详情。</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Start</source>
        <translation>启动</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Start the engine and wait until it serves; it stays outside the proxy</source>
        <translation>启动引擎并等待其进入服务状态；引擎不会加入代理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>In the proxy: take it out, drain, then stop. Otherwise stop at once</source>
        <translation>在代理中：先移出并排空，再停止；否则立即停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restart</source>
        <translation>重启</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Drain out, stop, start, add back (when in the proxy)</source>
        <translation>排空移出、停止、启动、重新加入（在代理中时）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restart DP group</source>
        <translation>重启 DP 组</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>A rank of a coupled DP group: every rank of the group out of the proxy, stopped, started together and added back</source>
        <translation>耦合 DP 组的 rank：该组每个 rank 移出代理、停止、一起启动并重新加入</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add to proxy</source>
        <translation>加入代理</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Start if needed, add to the proxy, verify it receives traffic</source>
        <translation>必要时先启动，再加入代理，并确认其收到流量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove from proxy</source>
        <translation>移出代理</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Take it out of the proxy and drain; the process keeps running</source>
        <translation>移出代理并排空；进程继续运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show log</source>
        <translation>显示日志</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Follow the engine&apos;s log with the known error signatures diagnosed</source>
        <translation>跟踪引擎日志，并诊断已知的错误特征</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Acting on engines needs the console&apos;s operations (SSH or local runner and the proxy client).</source>
        <translation>对引擎执行操作需要控制台的操作功能（SSH 或本地执行器，以及代理客户端）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&lt;b&gt;Launcher arguments&lt;/b&gt;</source>
        <translation>&lt;b&gt;启动器参数&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;Facts&lt;/b&gt;</source>
        <translation>&lt;b&gt;观测信息&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;Last 5 minutes&lt;/b&gt;</source>
        <translation>&lt;b&gt;最近 5 分钟&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;Recent events&lt;/b&gt;</source>
        <translation>&lt;b&gt;最近事件&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>&lt;table cellspacing=&apos;2&apos;&gt;&lt;tr&gt;&lt;td&gt;Node&lt;/td&gt;&lt;td&gt;&lt;b&gt;%1&lt;/b&gt; (%2, %3)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Role&lt;/td&gt;&lt;td&gt;%4&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;DP rank&lt;/td&gt;&lt;td&gt;%5 (local %6 of %7; group of %8, master %9:%10)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Port&lt;/td&gt;&lt;td&gt;%11&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;TP size&lt;/td&gt;&lt;td&gt;%12&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</source>
        <translation>&lt;table cellspacing=&apos;2&apos;&gt;&lt;tr&gt;&lt;td&gt;节点&lt;/td&gt;&lt;td&gt;&lt;b&gt;%1&lt;/b&gt; (%2, %3)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;角色&lt;/td&gt;&lt;td&gt;%4&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;DP rank&lt;/td&gt;&lt;td&gt;%5（本地 %6/%7；组大小 %8，主节点 %9:%10）&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;端口&lt;/td&gt;&lt;td&gt;%11&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;TP 大小&lt;/td&gt;&lt;td&gt;%12&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>%1 for %2 — %3</source>
        <comment>state, how long, why</comment>
        <translation>%1 已持续 %2 — %3</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Process (SSH)</source>
        <translation>进程（SSH）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>unknown — no SSH connection yet</source>
        <translation>未知 — 尚无 SSH 连接</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>HTTP /metrics</source>
        <translation>HTTP /metrics</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>/health</source>
        <translation>/health</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not probed yet</source>
        <translation>尚未探测</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>since %1</source>
        <translation>始于 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>/v1/models</source>
        <translation>/v1/models</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not ready</source>
        <translation>未就绪</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not probed</source>
        <translation>未探测</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Proxy membership</source>
        <translation>代理成员状态</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>last good %1</source>
        <translation>上次成功 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Last error</source>
        <translation>最近错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 running, %2 waiting; %3</source>
        <translation>%1 个运行中，%2 个等待中；%3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>counters frozen for %1 polls (stall at %2)</source>
        <translation>计数器已连续 %1 次轮询未变化（%2 次即判定为停滞）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>counters moving</source>
        <translation>计数器在变化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no scrape yet</source>
        <translation>尚未抓取</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>moved %1</source>
        <translation>上次变化 %1</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>No events yet.</source>
        <translation>暂无事件。</translation>
    </message>
</context>
<context>
    <name>pd::EngineState</name>
    <message>
        <location filename="../../core/state/derivestate.cpp" line="+19"/>
        <source>never</source>
        <translation>从未</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 ago</source>
        <translation>%1前</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>process %1%2 (%3)</source>
        <translation>进程 %1%2（%3）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>/metrics ok (%1)</source>
        <translation>/metrics ok（%1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>/metrics %1 × %2 since %3: %4</source>
        <translation>/metrics %1 × %2，自 %3起：%4</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>last good /metrics %1</source>
        <translation>上次 /metrics 成功：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>/v1/models %1 (%2)</source>
        <translation>/v1/models %1（%2）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not ready</source>
        <translation>未就绪</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>running %1, waiting %2; counters generation %3, prompt %4, success %5; %6</source>
        <translation>运行中 %1，等待中 %2；计数器：生成 %3，提示词 %4，成功 %5；%6</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>frozen for %1 polls (stall at %2)</source>
        <translation>已连续 %1 次轮询未变化（%2 次即判定为停滞）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>moved %1</source>
        <translation>上次变化 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>operator intent %1%2 (%3)</source>
        <translation>操作员意图 %1%2（%3）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>proxy membership %1%2 (%3)</source>
        <translation>代理成员状态 %1%2（%3）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>metrics %1</source>
        <translation>指标 %1</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>stopped by the operator at %1</source>
        <translation>已由操作员停止，于 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stopped by the operator (%1) at %2</source>
        <translation>已由操作员停止（%1），于 %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>; the proxy still lists it as draining until it is idle</source>
        <translation>；在其空闲之前，代理仍将其列为排空中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>; the proxy still lists it as active</source>
        <translation>；代理仍将其列为活动</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>; the proxy still lists it as waiting</source>
        <translation>；代理仍将其列为等待中</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>taken out of the proxy by the operator at %1</source>
        <translation>已由操作员移出代理，于 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>taken out of the proxy by the operator (%1) at %2</source>
        <translation>已由操作员移出代理（%1），于 %2</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 d %2 h</source>
        <translation>%1 天 %2 小时</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>the process exited</source>
        <translation>进程已退出</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>process running, not polled yet</source>
        <translation>进程运行中，尚未轮询</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not observed yet</source>
        <translation>尚未观测</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 polls in a row</source>
        <translation>连续 %1 次轮询</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>process running, port not open yet (loading weights?)</source>
        <translation>进程运行中，端口尚未打开（可能正在加载权重？）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>nothing listens on its port; it never answered</source>
        <translation>端口上无进程监听；从未响应过</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>out of the proxy and nothing listens on its port</source>
        <translation>已移出代理，且端口上无进程监听</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>connection refused %1 (answered %2)</source>
        <translation>连接被拒绝，%1（上次响应：%2）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no answer in time, %1</source>
        <translation>响应超时，%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+3"/>
        <source>/metrics answers HTTP %1, %2</source>
        <translation>/metrics 返回 HTTP %1，%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>/metrics does not parse, %1</source>
        <translation>/metrics 无法解析，%1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>/health answers %1</source>
        <translation>/health 返回 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>process running, not answering yet</source>
        <translation>进程运行中，尚未响应</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no good poll yet</source>
        <translation>尚无成功的轮询</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>/v1/models not ready</source>
        <translation>/v1/models 未就绪</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>KV cache pinned at %1 %: running %2, waiting %3, no counter moved for %4 polls</source>
        <translation>KV 缓存占用停在 %1 %：运行 %2，等待 %3，%4 次轮询内计数器未变化</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 waiting, none running: no request scheduled and no counter moved for %2 polls (KV transfer hung?)</source>
        <translation>%1 个等待、无运行：%2 次轮询内没有请求被调度、计数器也未变化（KV 传输卡住？）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 running, no token or success counter moved for %2 polls</source>
        <translation>%1 运行中，token 计数器和成功计数器已连续 %2 次轮询未变化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>1 request</source>
        <translation>1 个请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 requests</source>
        <translation>%1 个请求</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+12"/>
        <source>%1, finishing %2 requests</source>
        <translation>%1，正在完成 %2 个请求</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>%1, idle</source>
        <translation>%1，空闲</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>healthy and in the proxy&apos;s active list</source>
        <translation>健康，且在代理的活跃列表中</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>added to the proxy, waiting for activation</source>
        <translation>已加入代理，等待激活</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>removed from the proxy, finishing %1 requests</source>
        <translation>已移出代理，正在完成 %1 个请求</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>healthy, not added to the proxy</source>
        <translation>健康，未加入代理</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>healthy, removed from the proxy</source>
        <translation>健康，已移出代理</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>healthy, the proxy dropped its add</source>
        <translation>健康，但代理丢弃了其加入请求</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>healthy and making progress (proxy membership not reconciled)</source>
        <translation>健康且有进展（代理成员状态未核对）</translation>
    </message>
    <message>
        <location filename="../../core/state/enginestate.cpp" line="+37"/>
        <location line="+12"/>
        <source>unknown</source>
        <comment>engine state id</comment>
        <translation>未知</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>stopped</source>
        <comment>engine state id</comment>
        <translation>已停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>starting</source>
        <comment>engine state id</comment>
        <translation>启动中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ready-not-in-proxy</source>
        <comment>engine state id</comment>
        <translation>就绪，未加入代理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waiting-in-proxy</source>
        <comment>engine state id</comment>
        <translation>在代理中等待</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>serving</source>
        <comment>engine state id</comment>
        <translation>服务中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>draining</source>
        <comment>engine state id</comment>
        <translation>排空中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stalled</source>
        <comment>engine state id</comment>
        <translation>停滞</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unhealthy</source>
        <comment>engine state id</comment>
        <translation>不健康</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unreachable</source>
        <comment>engine state id</comment>
        <translation>不可达</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>group-broken</source>
        <comment>engine state id</comment>
        <translation>组损坏</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+12"/>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ready, not in proxy</source>
        <translation>就绪，未加入代理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Waiting in proxy</source>
        <translation>在代理中等待</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Serving</source>
        <translation>服务中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Draining</source>
        <translation>排空中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stalled</source>
        <translation>停滞</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unhealthy</source>
        <translation>不健康</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unreachable</source>
        <translation>不可达</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Group broken</source>
        <translation>组已损坏</translation>
    </message>
</context>
<context>
    <name>pd::EngineTableModel</name>
    <message>
        <location filename="../../core/models/enginetablemodel.cpp" line="+82"/>
        <source>/metrics %1 in %2 ms, /health %3</source>
        <translation>/metrics %1，耗时 %2 ms，/health %3</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>
last good scrape %1</source>
        <translation>
最近一次成功采集：%1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>unhealthy (/health %1)</source>
        <translation>不健康（/health %1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>responding</source>
        <translation>响应正常</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>refused</source>
        <translation>连接被拒绝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>bad metrics</source>
        <translation>指标格式错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>bash %1 %2</source>
        <translation>bash %1 %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Pool</source>
        <translation>池</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>DP rank</source>
        <translation>DP rank</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>DP master</source>
        <translation>DP 主节点</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>TP</source>
        <translation>TP</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Launcher arguments</source>
        <translation>启动参数</translation>
    </message>
</context>
<context>
    <name>pd::ErrorBanner</name>
    <message>
        <location filename="../../widgets/errorbanner.cpp" line="+26"/>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message numerus="yes">
        <location line="+13"/>
        <source>… and %n more</source>
        <translation>
            <numerusform>… 另有 %n 条</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>pd::EventModel</name>
    <message>
        <location filename="../../core/models/eventmodel.cpp" line="+69"/>
        <source>state</source>
        <comment>event kind</comment>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>membership</source>
        <comment>event kind</comment>
        <translation>成员变更</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>process</source>
        <comment>event kind</comment>
        <translation>进程</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>proxy</source>
        <comment>event kind</comment>
        <translation>代理</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>action</source>
        <comment>event kind</comment>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>diagnosis</source>
        <comment>event kind</comment>
        <translation>诊断</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>What</source>
        <translation>事件</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
</context>
<context>
    <name>pd::GroupState</name>
    <message>
        <location filename="../../core/state/groupstate.cpp" line="+118"/>
        <location line="+12"/>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Serving</source>
        <translation>服务中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Degraded</source>
        <translation>降级</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Broken</source>
        <translation>已损坏</translation>
    </message>
</context>
<context>
    <name>pd::GuiSshPrompts</name>
    <message>
        <location filename="../../widgets/sshdialogs/guisshprompts.cpp" line="+78"/>
        <source>Passphrase for %1</source>
        <translation>%1 的密码短语</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Passphrase of the SSH identity file:</source>
        <translation>SSH 身份文件的密码短语：</translation>
    </message>
</context>
<context>
    <name>pd::HostKeyTrustDialog</name>
    <message>
        <location filename="../../widgets/sshdialogs/hostkeytrustdialog.cpp" line="+16"/>
        <source>Unknown host key: %1</source>
        <translation>未知主机密钥：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;%1&lt;/b&gt; presents a host key that is not in your known_hosts file. Trust it only if the fingerprint matches the one the node itself reports (on the node: &lt;tt&gt;ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub&lt;/tt&gt;).</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 提供的主机密钥不在您的 known_hosts 文件中。仅当其指纹与节点自身报告的指纹一致时才信任它（在该节点上执行：&lt;tt&gt;ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub&lt;/tt&gt;）。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Key type</source>
        <translation>密钥类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fingerprint</source>
        <translation>指纹</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Will be added to</source>
        <translation>将添加到</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Trust and connect</source>
        <translation>信任并连接</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refuse</source>
        <translation>拒绝</translation>
    </message>
</context>
<context>
    <name>pd::ImportDialog</name>
    <message>
        <location filename="../../widgets/importdialog.cpp" line="+89"/>
        <source>Import Cluster</source>
        <translation>导入集群</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>python load_balance_proxy_server_example.py --port 1025 --prefiller-hosts … (backslash lines are fine)</source>
        <translation>python load_balance_proxy_server_example.py --port 1025 --prefiller-hosts …（可使用反斜杠续行）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Proxy command line</source>
        <translation>代理命令行</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>From the sources</source>
        <translation>由来源判断</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Proxy generation</source>
        <translation>代理版本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>one per node: 192.0.0.5: dp_size=64 dp_size_local=16 dp_rank_start=0 …</source>
        <translation>每个节点一行：192.0.0.5: dp_size=64 dp_size_local=16 dp_rank_start=0 …</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Launcher parameters</source>
        <translation>启动器参数</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>ranktable.json (optional)</source>
        <translation>ranktable.json（可选）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Rank table</source>
        <translation>Rank table</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Start scripts</source>
        <translation>启动脚本</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No container</source>
        <translation>不使用容器</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>container name, e.g. vllm_deepseek_pd</source>
        <translation>容器名称，例如 vllm_deepseek_pd</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Engines run in</source>
        <translation>引擎运行于</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>one per line: …/ascend-toolkit/set_env.sh</source>
        <translation>每行一个：…/ascend-toolkit/set_env.sh</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Environment scripts</source>
        <translation>环境脚本</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cluster name</source>
        <translation>集群名称</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Profile preview</source>
        <translation>配置预览</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Errors, warnings and validation</source>
        <translation>错误、警告与校验</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Save Profile…</source>
        <translation>保存配置…</translation>
    </message>
    <message>
        <location line="+73"/>
        <source>a rank table</source>
        <translation>rank table</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>a start script</source>
        <translation>启动脚本</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Give at least one source: the proxy&apos;s command line, launcher parameters, a rank table or a start script.</source>
        <translation>请至少提供一个来源：代理命令行、启动器参数、rank table 或启动脚本。</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+2"/>
        <source>error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>error: %1: %2</source>
        <translation>错误：%1：%2</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>warning: %1: %2</source>
        <translation>警告：%1：%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No profile: fix the errors listed below.</source>
        <translation>未生成配置：请修正下方列出的错误。</translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>Cannot import: %n error(s).</source>
        <translation>
            <numerusform>无法导入：%n 个错误。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Imported %1 node(s), %2 engine(s), with validation errors: it can be saved and fixed, but not run as is.</source>
        <translation>已导入 %1 个节点、%2 个引擎，存在校验错误：可以保存后修改，但不能直接运行。</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>Imported %1 node(s), %2 engine(s); %n warning(s).</source>
        <translation>
            <numerusform>已导入 %1 个节点、%2 个引擎；%n 条警告。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+11"/>
        <source>the import has errors; nothing was saved</source>
        <translation>导入有错误；未保存任何内容</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: cannot write: %2</source>
        <translation>%1：无法写入：%2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Add Start Scripts</source>
        <translation>添加启动脚本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shell scripts (*.sh);;All files (*)</source>
        <translation>Shell 脚本 (*.sh);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Rank Table</source>
        <translation>Rank Table</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>JSON (*.json);;All files (*)</source>
        <translation>JSON (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Save Imported Profile</source>
        <translation>保存导入的配置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cluster profiles (*.json)</source>
        <translation>集群配置文件 (*.json)</translation>
    </message>
</context>
<context>
    <name>pd::InterruptedOperationsBar</name>
    <message>
        <location filename="../../widgets/operations/interruptedbar.cpp" line="+127"/>
        <source>Operations journal not read: %1. Operations cut short earlier are not known.</source>
        <translation>未读取操作日志：%1。无法得知先前被中断的操作。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&lt;b&gt;Cut short:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;被中断：&lt;/b&gt; %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Left: %1</source>
        <translation>遗留状态：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Finish: %1</source>
        <translation>完成：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Undo: %1</source>
        <translation>撤销：%1</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Finish…</source>
        <translation>完成…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Undo…</source>
        <translation>撤销…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Forget</source>
        <translation>忽略</translation>
    </message>
    <message>
        <location line="+14"/>
        <location line="+35"/>
        <source>Not repaired: %1</source>
        <translation>未修复：%1</translation>
    </message>
    <message>
        <location line="-29"/>
        <source>Cannot repair %1: %2</source>
        <translation>无法修复 %1：%2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source> The proxy still drains them: if it has not let them go %1 s after their removal once they serve, it is restarted with its current lists (the requests in flight at that moment fail; counted in the audit log).</source>
        <translation>代理仍在排空它们：如果它们恢复服务后、自移出起 %1 秒代理仍未放开它们，代理将以当前列表重启（届时在途的请求会失败；计入审计日志）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Finish the operation cut short</source>
        <translation>完成被中断的操作</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Undo the operation cut short</source>
        <translation>撤销被中断的操作</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1

Left: %2

%3: %4.%5

Apply?</source>
        <translation>%1

遗留状态：%2

%3：%4。%5

是否执行？</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Finish</source>
        <translation>完成</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Not forgotten: %1</source>
        <translation>未能忽略：%1</translation>
    </message>
</context>
<context>
    <name>pd::LogSignatures</name>
    <message>
        <location filename="../../core/logs/logsignatures.cpp" line="+34"/>
        <source>NPU out of memory</source>
        <translation>NPU 设备内存不足</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HBM exhausted. With W8A8/W4A8 weights the usual cause is that the quantization path was not taken, so weights load as BF16.</source>
        <translation>HBM 已耗尽。对于 W8A8/W4A8 权重，常见原因是未走量化路径，导致权重以 BF16 加载。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Start with --quantization ascend for msModelSlim-quantized weights; then lower --max-model-len / --gpu-memory-utilization, PYTORCH_NPU_ALLOC_CONF=expandable_segments:True.</source>
        <translation>对于 msModelSlim 量化的权重，启动时加上 --quantization ascend；然后调低 --max-model-len / --gpu-memory-utilization，并设置 PYTORCH_NPU_ALLOC_CONF=expandable_segments:True。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Device memory allocation failed</source>
        <translation>设备内存分配失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Driver-level device-memory allocation failed: NPU already used by another process/engine or budget too high.</source>
        <translation>驱动层设备内存分配失败：该 NPU 已被其他进程/引擎占用，或内存预算设置过高。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Check the npu-smi info process table on that NPU, kill leftovers, reduce memory settings.</source>
        <translation>在 npu-smi info 的进程列表中查看该 NPU 上的进程，结束残留进程，调低内存相关设置。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Negative KV cache memory</source>
        <translation>KV 缓存可用内存为负</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model weights exceed the memory budget; KV cache size negative.</source>
        <translation>模型权重超出内存预算；KV 缓存大小为负。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Larger TP / more NPUs, smaller --max-model-len, higher --gpu-memory-utilization, or quantized weights.</source>
        <translation>增大 TP / 使用更多 NPU，减小 --max-model-len，提高 --gpu-memory-utilization，或使用量化权重。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Quantized model in float16</source>
        <translation>量化模型以 float16 运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Quantized (W8A8) model running in float16; the quant-matmul op accepts only FP32/BF16/INT64/UINT64 scales.</source>
        <translation>量化（W8A8）模型以 float16 运行；quant-matmul 算子仅接受 FP32/BF16/INT64/UINT64 类型的 scale。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Set &quot;torch_dtype&quot;: &quot;bfloat16&quot; in the model&apos;s config.json and/or --dtype bfloat16.</source>
        <translation>在模型的 config.json 中设置 &quot;torch_dtype&quot;: &quot;bfloat16&quot;，和/或使用 --dtype bfloat16。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>HCCL root port 60000 in use</source>
        <translation>HCCL root 端口 60000 被占用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Host-side HCCL root port (default 60000) already bound: a second engine/stale process on the same host.</source>
        <translation>Host 侧 HCCL root 端口（默认 60000）已被绑定：同一主机上存在第二个引擎/残留进程。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kill the stale engine, or give each instance its own HCCL_IF_BASE_PORT / HCCL_HOST_SOCKET_PORT_RANGE=&quot;auto&quot;.</source>
        <translation>结束残留引擎，或为每个实例分别设置 HCCL_IF_BASE_PORT / HCCL_HOST_SOCKET_PORT_RANGE=&quot;auto&quot;。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>HCCL host port bind failed (EI0019)</source>
        <translation>HCCL Host 端口绑定失败（EI0019）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Same as row 5 on newer CANN (message names IP and port).</source>
        <translation>与第 5 条相同，出现在较新版本的 CANN 上（报错信息中会给出 IP 和端口）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HCCL_IF_BASE_PORT, reserve ports with sysctl -w net.ipv4.ip_local_reserved_ports=..., don&apos;t start the service twice.</source>
        <translation>配置 HCCL_IF_BASE_PORT；使用 sysctl -w net.ipv4.ip_local_reserved_ports=... 预留端口；不要重复启动服务。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Device NIC port 16666 in use</source>
        <translation>Device 侧 NIC 端口 16666 被占用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Device-NIC port 16666 taken: two processes on one NPU (e.g. overlapping ASCEND_RT_VISIBLE_DEVICES).</source>
        <translation>Device 侧 NIC 端口 16666 已被占用：同一 NPU 上运行了两个进程（例如 ASCEND_RT_VISIBLE_DEVICES 存在重叠）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Don&apos;t share an NPU between engines, or HCCL_NPU_SOCKET_PORT_RANGE=&quot;auto&quot;.</source>
        <translation>不要让多个引擎共用同一 NPU，或设置 HCCL_NPU_SOCKET_PORT_RANGE=&quot;auto&quot;。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>HCCL link setup timeout</source>
        <translation>HCCL 建链超时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HCCL link setup timed out (HCCL_CONNECT_TIMEOUT, default 120 s): peer rank crashed or started late, NPU network down, IPs not in the same segment, or TLS switch inconsistent.</source>
        <translation>HCCL 建链超时（HCCL_CONNECT_TIMEOUT，默认 120 s）：对端 rank 崩溃或启动过晚、NPU 网络中断、IP 不在同一网段，或 TLS 开关不一致。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Find the first failing rank; on both ends run hccn_tool -link/-net_health/-ping/-tls -g; raise HCCL_CONNECT_TIMEOUT for big clusters.</source>
        <translation>找到最先失败的 rank；在两端执行 hccn_tool -link/-net_health/-ping/-tls -g；大规模集群请调大 HCCL_CONNECT_TIMEOUT。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Ranks cannot reach the HCCL root</source>
        <translation>各 rank 无法连接 HCCL root</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ranks cannot reach the root over the host NIC: wrong HCCL_IF_IP / HCCL_SOCKET_IFNAME (HCCL picks host NICs in dictionary order), firewall, or start skew &gt; timeout.</source>
        <translation>各 rank 无法通过 Host NIC 连接 root：HCCL_IF_IP / HCCL_SOCKET_IFNAME 配置错误（HCCL 按字典序选择 Host NIC）、防火墙拦截，或各节点启动时间差超过超时时间。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Set HCCL_IF_IP=&lt;this node&apos;s reachable host IP&gt; and HCCL_SOCKET_IFNAME/GLOO_SOCKET_IFNAME/TP_SOCKET_IFNAME=&lt;nic&gt; on every node; check host ping; raise HCCL_CONNECT_TIMEOUT.</source>
        <translation>在每个节点上设置 HCCL_IF_IP=&lt;本节点可达的 Host IP&gt; 以及 HCCL_SOCKET_IFNAME/GLOO_SOCKET_IFNAME/TP_SOCKET_IFNAME=&lt;nic&gt;；检查 Host 间能否 ping 通；调大 HCCL_CONNECT_TIMEOUT。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>HCCL communicator creation failed</source>
        <translation>HCCL 通信域创建失败</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Communicator creation failed (createHCCLComm/create_config). 11 = TCP connect (host network/port), 9 = timeout, 1 = bad parameter/config.</source>
        <translation>通信域创建失败（createHCCLComm/create_config）。错误码 11 = TCP 连接失败（Host 网络/端口），9 = 超时，1 = 参数/配置错误。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Read the EI/EJ code printed next to it and apply rows 5-9/13; verify HCCL_IF_IP, ports, rank table.</source>
        <translation>查看紧挨着它打印的 EI/EJ 错误码，并参照第 5-9/13 条处理；核对 HCCL_IF_IP、端口和 rank table。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>HCCL transport init failed</source>
        <translation>HCCL 传输链路初始化失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Parameter-plane transport between two devices could not be created (port down, no IP, no switch link, peer not initialised).</source>
        <translation>两个设备之间无法创建参数面传输链路（端口 down、未配置 IP、与交换机之间无链路、对端未初始化）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>hccn_tool -optical -g | grep present, -ip -g, -lldp -g on both devices.</source>
        <translation>在两个设备上分别执行 hccn_tool -optical -g | grep present、-ip -g、-lldp -g。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>TLS switch inconsistent (EI0016)</source>
        <translation>TLS 开关不一致（EI0016）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>TLS switch differs between ranks (HDK &gt;= 25.2.0 detects it; older ones just time out as row 8).</source>
        <translation>各 rank 之间的 TLS 开关设置不一致（HDK &gt;= 25.2.0 可检测出该问题；更早的版本只会像第 8 条那样超时）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>for i in {0..7}; do hccn_tool -i $i -tls -s enable 0; done on every node (or enable everywhere).</source>
        <translation>在每个节点上执行 for i in {0..7}; do hccn_tool -i $i -tls -s enable 0; done（或在所有节点上统一开启）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rank table invalid</source>
        <translation>rank table 无效</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rank table bad: path/permission, missing field (super_device_id required for version 1.2/A3), device_ip != hccn_tool -ip -g, or duplicate SDID.</source>
        <translation>rank table 有误：路径/权限问题、缺少字段（version 1.2/A3 必须包含 super_device_id）、device_ip 与 hccn_tool -ip -g 的结果不一致，或 SDID 重复。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Regenerate the rank table from live hccn_tool -ip/-vnic -g and npu-smi info -t spod-info; A2 uses version 1.0, A3 1.2.</source>
        <translation>根据 hccn_tool -ip/-vnic -g 和 npu-smi info -t spod-info 的当前实际输出重新生成 rank table；A2 使用 version 1.0，A3 使用 1.2。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>HCCL execution timeout</source>
        <translation>HCCL 执行超时</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Execution-phase collective timeout (HCCL_EXEC_TIMEOUT, 1800 s default): another rank died or is stuck, inconsistent ops, or packet loss.</source>
        <translation>执行阶段集合通信超时（HCCL_EXEC_TIMEOUT，默认 1800 s）：其他 rank 已退出或卡住、各 rank 的算子不一致，或网络丢包。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Look for the first error on other ranks; check network; keep HCCL_CONNECT_TIMEOUT &lt; HCCL_EXEC_TIMEOUT.</source>
        <translation>在其他 rank 上查找最早出现的错误；检查网络；保持 HCCL_CONNECT_TIMEOUT &lt; HCCL_EXEC_TIMEOUT。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>RDMA completion error</source>
        <translation>RDMA 完成事件错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>RDMA completion error between two devices: NIC port flapping or peer process exited.</source>
        <translation>两个设备之间出现 RDMA 完成事件错误：NIC 端口闪断，或对端进程已退出。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>hccn_tool -i N -link_stat -g / -net_health -g on both ends; check peer logs.</source>
        <translation>在两端执行 hccn_tool -i N -link_stat -g / -net_health -g；检查对端日志。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>LLMDataDist link failed</source>
        <translation>LLMDataDist 建链失败</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>LLMDataDist KV connector could not link P and D devices (bad global rank table / device IPs, NPU network not reachable, wrong HCCL_IF_IP e.g. 127.0.0.1).</source>
        <translation>LLMDataDist KV connector 无法在 P 与 D 设备之间建链（全局 rank table / 设备 IP 有误、NPU 网络不可达、HCCL_IF_IP 配置错误，如 127.0.0.1）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Verify DISAGGREGATED_PREFILL_RANK_TABLE_PATH content vs live device IPs; hccn_tool -ping P&lt;-&gt;D device IPs.</source>
        <translation>核对 DISAGGREGATED_PREFILL_RANK_TABLE_PATH 的内容与当前实际设备 IP 是否一致；用 hccn_tool -ping 测试 P&lt;-&gt;D 设备 IP 之间的连通性。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Mooncake transfer failed</source>
        <translation>Mooncake 传输失败</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Mooncake AscendDirect transfer could not connect/transfer between P and D (old CANN, missing use_ascend_direct, NPU network or port problem, timeout too short).</source>
        <translation>Mooncake AscendDirect 无法在 P 与 D 之间建立连接/传输数据（CANN 版本过旧、缺少 use_ascend_direct、NPU 网络或端口问题、超时时间过短）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CANN &gt;= 8.3.RC1, add &quot;use_ascend_direct&quot;: true to kv_connector_extra_config, verify P&lt;-&gt;D with hccn_tool -ping/-hccs_ping, raise ASCEND_CONNECT_TIMEOUT.</source>
        <translation>使用 CANN &gt;= 8.3.RC1；在 kv_connector_extra_config 中添加 &quot;use_ascend_direct&quot;: true；用 hccn_tool -ping/-hccs_ping 验证 P&lt;-&gt;D 连通性；调大 ASCEND_CONNECT_TIMEOUT。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Port already in use</source>
        <translation>端口已被占用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Port clash: kv_port inside AscendDirectTransport&apos;s random range [20000, 20000+npu_per_node*1000), two engines/DP ranks racing for the same port, or a stale process.</source>
        <translation>端口冲突：kv_port 落在 AscendDirectTransport 的随机端口范围 [20000, 20000+npu_per_node*1000) 内、两个引擎/DP rank 争用同一端口，或存在残留进程。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>kv_port &gt;= 28000 (A2, 8 NPUs) / &gt;= 36000 (A3, 16); unique --port, --data-parallel-rpc-port, kv_port..kv_port+chips per engine; kill stale engines.</source>
        <translation>kv_port &gt;= 28000（A2，8 个 NPU）/ &gt;= 36000（A3，16 个）；每个引擎使用互不相同的 --port、--data-parallel-rpc-port 和 kv_port..kv_port+chips；结束残留引擎。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Engine core initialization failed</source>
        <translation>Engine core 初始化失败</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Wrapper only: an EngineCore/worker died during startup.</source>
        <translation>仅为外层包装报错：某个 EngineCore/worker 在启动过程中退出。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the first ERROR/Traceback above it and classify that line instead.</source>
        <translation>显示其上方的第一条 ERROR/Traceback，并改为按该行进行归类。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>vLLM-Ascend plugin not loaded</source>
        <translation>vLLM-Ascend 插件未加载</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>vLLM-Ascend plugin not installed/importable or CANN/NNAL env not sourced.</source>
        <translation>vLLM-Ascend 插件未安装/无法导入，或未 source CANN/NNAL 环境变量。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>source /usr/local/Ascend/ascend-toolkit/set_env.sh and .../nnal/atb/set_env.sh; python -c &quot;import torch_npu, vllm_ascend&quot;; install matching vllm + vllm-ascend.</source>
        <translation>执行 source /usr/local/Ascend/ascend-toolkit/set_env.sh 和 .../nnal/atb/set_env.sh；运行 python -c &quot;import torch_npu, vllm_ascend&quot;；安装版本匹配的 vllm + vllm-ascend。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>torch / torch_npu version mismatch</source>
        <translation>torch / torch_npu 版本不匹配</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>torch / torch_npu / CANN / vllm version mismatch.</source>
        <translation>torch / torch_npu / CANN / vllm 版本不匹配。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Install vLLM first, then vLLM-Ascend (it pins torch + torch-npu), or use the official image; don&apos;t upgrade torch afterwards.</source>
        <translation>先安装 vLLM，再安装 vLLM-Ascend（它会锁定 torch + torch-npu 的版本），或使用官方镜像；之后不要再升级 torch。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>DCMI cannot open the device</source>
        <translation>DCMI 无法打开设备</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>npu-smi/DCMI cannot open the device in this container: device owned by another container, or container not privileged / missing /dev/davinci_manager, /dev/hisi_hdc, /dev/devmm_svm.</source>
        <translation>npu-smi/DCMI 无法在当前容器中打开设备：设备已被其他容器占用，或容器未以特权模式运行 / 缺少 /dev/davinci_manager、/dev/hisi_hdc、/dev/devmm_svm。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Free the device or run with --privileged and the standard device/driver mounts.</source>
        <translation>释放该设备，或使用 --privileged 并按标准方式挂载设备/驱动后运行。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Runtime could not open the NPU</source>
        <translation>Runtime 无法打开 NPU</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Runtime could not open/set up the NPU: device busy/occupied, visible-device list names a device the container does not have, or driver fault.</source>
        <translation>Runtime 无法打开/设置 NPU：设备忙/被占用、可见设备列表中指定了容器内不存在的设备，或驱动故障。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Check ASCEND_RT_VISIBLE_DEVICES vs mounted /dev/davinciN, npu-smi info processes, driver health.</source>
        <translation>核对 ASCEND_RT_VISIBLE_DEVICES 与已挂载的 /dev/davinciN 是否一致，检查 npu-smi info 中的进程以及驱动健康状态。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Operator / AI Core failure</source>
        <translation>算子 / AI Core 故障</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Operator / device task failure during execution (kernel constraint or AI Core fault). Known case: MLA needs heads-per-rank in {32,64,128}.</source>
        <translation>执行期间算子 / 设备任务失败（kernel 约束或 AI Core 故障）。已知案例：MLA 要求每个 rank 上的 head 数为 {32,64,128} 之一。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Take the first EZ/EE message: fix config (e.g. TP so num_heads/num_kv_heads in {32,64,128}); if aicore error repeats on one device, run npu-smi info -t health, collect plog, consider hardware.</source>
        <translation>以第一条 EZ/EE 报错为准：修正配置（例如调整 TP，使 num_heads/num_kv_heads 属于 {32,64,128}）；若同一设备上反复出现 aicore error，执行 npu-smi info -t health，收集 plog，并考虑硬件问题。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Out of stream resources (graph capture)</source>
        <translation>stream 资源不足（图捕获）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>ACL graph capture ran out of stream resources.</source>
        <translation>ACL graph 捕获时 stream 资源耗尽。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fewer cudagraph_capture_sizes, FULL_DECODE_ONLY mode, newer HDK/CANN; enforce_eager to confirm.</source>
        <translation>减少 cudagraph_capture_sizes，使用 FULL_DECODE_ONLY 模式，升级 HDK/CANN；可用 enforce_eager 进行确认。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>ZMQ error in the KV connector</source>
        <translation>KV connector 中的 ZMQ 错误</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A ZMQ socket of the KV connector&apos;s side channel failed (a peer that stopped answering, or a socket used out of order after an earlier error); seen beside a KV cache stuck near full that never frees.</source>
        <translation>KV connector 旁路通道（side channel）中的某个 ZMQ socket 出错（对端停止响应，或在先前出错后 socket 被乱序使用）；常伴随 KV 缓存卡在接近占满且始终不释放的现象。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Look at the peer engine (prefiller for a decoder) and its log; if the KV cache stays pinned, remove the engine from the proxy and restart it.</source>
        <translation>检查对端引擎（对 decoder 而言即 prefiller）及其日志；若 KV 缓存持续被占用不释放，将该引擎从 proxy 中移除并重启。</translation>
    </message>
</context>
<context>
    <name>pd::LogView</name>
    <message>
        <location filename="../../widgets/logview.cpp" line="+58"/>
        <source>Follow</source>
        <translation>跟随</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hide the console&apos;s polls</source>
        <translation>隐藏控制台自身的轮询</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+109"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location line="-107"/>
        <source>Next</source>
        <translation>下一个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Previous</source>
        <translation>上一个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>First error</source>
        <translation>第一个错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next error</source>
        <translation>下一个错误</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Hide the access lines of this console&apos;s own requests: GET /healthcheck, /metrics, /health and /v1/models, asked every few seconds</source>
        <translation>隐藏本控制台自身请求的访问日志行：每隔几秒发出的 GET /healthcheck、/metrics、/health 和 /v1/models</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Search (Enter: next, Shift+Enter: previous)</source>
        <translation>搜索（Enter：下一个，Shift+Enter：上一个）</translation>
    </message>
    <message>
        <location line="+89"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <location line="+76"/>
        <source>“%1” not found %2</source>
        <translation>%2未找到“%1”</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>above</source>
        <translation>上方</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>below</source>
        <translation>下方</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>No error in the %1 lines held</source>
        <translation>已保留的 %1 行中没有错误</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>&lt;p&gt;&lt;b&gt;No known failure signature selected.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Lines marked with a diamond match one of the %1 known signatures; select one to see its diagnosis and fix.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;未选中已知故障特征。&lt;/b&gt;&lt;/p&gt;&lt;p&gt;带菱形标记的行匹配 %1 个已知特征之一；选中该行可查看诊断和修复方法。&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&lt;h3 style=&apos;color:%1&apos;&gt;#%2 %3&lt;/h3&gt;&lt;p&gt;&lt;i&gt;%4&lt;/i&gt; · line at byte %5&lt;/p&gt;</source>
        <translation>&lt;h3 style=&apos;color:%1&apos;&gt;#%2 %3&lt;/h3&gt;&lt;p&gt;&lt;i&gt;%4&lt;/i&gt; · 该行位于字节偏移 %5 处&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&lt;p&gt;&lt;b&gt;Diagnosis&lt;/b&gt;&lt;br&gt;%1&lt;/p&gt;&lt;p&gt;&lt;b&gt;Fix&lt;/b&gt;&lt;br&gt;%2&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;诊断&lt;/b&gt;&lt;br&gt;%1&lt;/p&gt;&lt;p&gt;&lt;b&gt;修复方法&lt;/b&gt;&lt;br&gt;%2&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;p&gt;&lt;b&gt;Network&lt;/b&gt;&lt;br&gt;Run the node checks on both ends of the failing link.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;网络&lt;/b&gt;&lt;br&gt;在故障链路两端的节点上运行节点检查。&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No log</source>
        <translation>无日志</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 — %2 lines</source>
        <translation>%1 — %2 行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> (%1 of the console&apos;s polls hidden)</source>
        <translation>（已隐藏控制台的 %1 行轮询）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> (%1 older dropped)</source>
        <translation>（已丢弃较早的 %1 行）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · paused</source>
        <translation> · 已暂停</translation>
    </message>
    <message>
        <location line="+0"/>
        <source> · live</source>
        <translation> · 实时</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> · %1</source>
        <translation> · %1</translation>
    </message>
</context>
<context>
    <name>pd::LogsPage</name>
    <message>
        <location filename="../../widgets/logspage.cpp" line="+32"/>
        <source>Log of</source>
        <translation>日志来源</translation>
    </message>
    <message>
        <location line="+93"/>
        <source>No cluster open.</source>
        <translation>未打开集群。</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Pick the proxy or an engine, or use Show log on an engine.</source>
        <translation>请选择代理或引擎，或在引擎上使用“显示日志”。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 on %2 (%3)</source>
        <translation>%2（%3）上的 %1</translation>
    </message>
</context>
<context>
    <name>pd::MainWindow</name>
    <message>
        <location filename="../../widgets/mainwindow.cpp" line="+81"/>
        <source>Profile problems</source>
        <translation>配置文件问题</translation>
    </message>
    <message>
        <location line="+27"/>
        <location line="+71"/>
        <source>&amp;Topology</source>
        <translation>拓扑(&amp;T)</translation>
    </message>
    <message>
        <location line="-70"/>
        <location line="+72"/>
        <location line="+14"/>
        <source>&amp;Cluster</source>
        <translation>集群(&amp;C)</translation>
    </message>
    <message>
        <location line="-85"/>
        <source>&amp;Pools</source>
        <translation>池(&amp;P)</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n engine(s) selected</source>
        <translation>
            <numerusform>已选择 %n 个引擎</numerusform>
        </translation>
    </message>
    <message>
        <location line="+44"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Open Profile…</source>
        <translation>打开配置文件(&amp;O)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Import Cluster…</source>
        <translation>导入集群(&amp;I)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Save Profile &amp;As…</source>
        <translation>配置文件另存为(&amp;A)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Profile Problems</source>
        <translation>配置文件问题(&amp;P)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>P&amp;ools Dashboard</source>
        <translation>池仪表盘(&amp;O)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Filter Engines</source>
        <translation>筛选引擎(&amp;F)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&amp;Validate Profile</source>
        <translation>校验配置文件(&amp;V)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Reload Profile</source>
        <translation>重新加载配置文件(&amp;R)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;About pdconsole</source>
        <translation>关于 pdconsole(&amp;A)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>reload the profile</source>
        <translation>重新加载配置文件</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>open %1</source>
        <translation>打开 %1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Could not open %1</source>
        <translation>无法打开 %1</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>%1 — pdconsole</source>
        <translation>%1 — pdconsole</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>pdconsole</source>
        <translation>pdconsole</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>(1 problem) </source>
        <translation>（1 个问题）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>(%1 problems) </source>
        <translation>（%1 个问题）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>1 problem</source>
        <translation>1 个问题</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 problems</source>
        <translation>%1 个问题</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>no problems</source>
        <translation>没有问题</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <location line="+16"/>
        <location line="+33"/>
        <source>&amp;Timeline</source>
        <translation>时间线(&amp;T)</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>P&amp;roblems</source>
        <translation>问题(&amp;R)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Engine Detail</source>
        <translation>引擎详情(&amp;E)</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>
Serving: engines in the proxy that serve, of those expected to (listed by the proxy, unless taken out on purpose). Clients: the canary&apos;s requests through the proxy that succeeded.</source>
        <translation>
服务中：代理中正在服务的引擎数 / 应当服务的引擎数（代理列出的实例，除非被有意移出）。客户端：探针经代理发出的请求中成功的比例。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 · %2 · DP rank %3</source>
        <translation>%1 · %2 · DP rank %3</translation>
    </message>
    <message>
        <location line="+103"/>
        <source>Open Cluster Profile</source>
        <translation>打开集群配置文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cluster profiles (*.json);;All files (*)</source>
        <translation>集群配置文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Save Cluster Profile</source>
        <translation>保存集群配置文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cluster profiles (*.json)</source>
        <translation>集群配置文件 (*.json)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Could not save the profile</source>
        <translation>无法保存配置文件</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>About pdconsole</source>
        <translation>关于 pdconsole</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;pdconsole %1&lt;/b&gt;&lt;br&gt;Operations console for prefill/decode disaggregated vLLM-Ascend clusters.</source>
        <translation>&lt;b&gt;pdconsole %1&lt;/b&gt;&lt;br&gt;面向 vLLM-Ascend 预填充/解码（PD）分离集群的运维控制台。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Preferences…</source>
        <translation>首选项(&amp;P)…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Command &amp;Palette…</source>
        <translation>命令面板(&amp;P)…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Topology (%1)</source>
        <translation>拓扑（%1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cluster (%1)</source>
        <translation>集群（%1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pools (%1)</source>
        <translation>池（%1）</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Engines</source>
        <translation>引擎</translation>
    </message>
</context>
<context>
    <name>pd::NodeCheck</name>
    <message>
        <location filename="../../core/nodecheck/checktypes.cpp" line="+18"/>
        <source>pass</source>
        <comment>check verdict</comment>
        <translation>通过</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+6"/>
        <source>unknown</source>
        <comment>check verdict</comment>
        <translation>未知</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>warning</source>
        <comment>check verdict</comment>
        <translation>警告</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>fail</source>
        <comment>check verdict</comment>
        <translation>失败</translation>
    </message>
</context>
<context>
    <name>pd::NodeCheckGridModel</name>
    <message>
        <location filename="../../core/models/nodecheckgridmodel.cpp" line="+61"/>
        <source>%1: waiting for the node</source>
        <translation>%1：正在等待节点</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 device %2</source>
        <translation>%1 设备 %2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>all %1 checks pass</source>
        <translation>全部 %1 项检查通过</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Node</source>
        <translation>节点</translation>
    </message>
</context>
<context>
    <name>pd::NodeChecksGrid</name>
    <message>
        <location filename="../../widgets/nodechecksgrid.cpp" line="+30"/>
        <source>Run checks</source>
        <translation>运行检查</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export JSON…</source>
        <translation>导出 JSON…</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Click a cell to see its checks and the raw output of each.</source>
        <translation>点击单元格可查看其检查项及每项的原始输出。</translation>
    </message>
    <message>
        <location line="+103"/>
        <source>%1 on %2%3: %4</source>
        <translation>%2%3 上的%1：%4</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> device %1</source>
        <translation> 设备 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>reason: %1</source>
        <translation>原因：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>exit code: %1</source>
        <translation>退出码：%1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Running: %1 reports from %2 nodes…</source>
        <translation>运行中：已收到 %1 份报告，共 %2 个节点…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No nodes</source>
        <translation>无节点</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 nodes — ✗ %2 fail  ! %3 warning  ? %4 unknown  ✓ %5 pass</source>
        <translation>%1 个节点 — ✗ %2 失败  ! %3 警告  ? %4 未知  ✓ %5 通过</translation>
    </message>
    <message>
        <location line="+27"/>
        <location line="+6"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Export node-check report</source>
        <translation>导出节点检查报告</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Report written to %1</source>
        <translation>报告已写入 %1</translation>
    </message>
</context>
<context>
    <name>pd::NodeTableModel</name>
    <message>
        <location filename="../../core/models/nodetablemodel.cpp" line="+47"/>
        <source>NPU IPs: %1</source>
        <translation>NPU IP：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 × %2 (%3 used)</source>
        <translation>%1 × %2（已用 %3）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> via %1</source>
        <translation> 经由 %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Pool</source>
        <translation>池</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>NPUs</source>
        <translation>NPU</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Engines</source>
        <translation>引擎</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>SSH</source>
        <translation>SSH</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>NIC</source>
        <translation>网卡</translation>
    </message>
</context>
<context>
    <name>pd::OperationModel</name>
    <message>
        <location filename="../../core/models/operationmodel.cpp" line="+15"/>
        <source>not-started</source>
        <comment>operation status</comment>
        <translation>未开始</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>running</source>
        <comment>operation status</comment>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>succeeded</source>
        <comment>operation status</comment>
        <translation>已成功</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed</source>
        <comment>operation status</comment>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cancelled</source>
        <comment>operation status</comment>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>pending</source>
        <comment>step status</comment>
        <translation>待执行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>running</source>
        <comment>step status</comment>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>done</source>
        <comment>step status</comment>
        <translation>已完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>skipped</source>
        <comment>step status</comment>
        <translation>已跳过</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed</source>
        <comment>step status</comment>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cancelled</source>
        <comment>step status</comment>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <location line="+97"/>
        <source>running: %1</source>
        <translation>运行中：%1</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Operation / step</source>
        <translation>操作 / 步骤</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
</context>
<context>
    <name>pd::OperationsPage</name>
    <message>
        <location filename="../../widgets/operations/operationspage.cpp" line="+46"/>
        <source>&amp;Read-only: refuse every change to the cluster</source>
        <translation>只读：拒绝对集群的任何更改(&amp;R)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Rolling restart prefill…</source>
        <translation>滚动重启预填充…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rolling restart decode…</source>
        <translation>滚动重启解码…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel restart</source>
        <translation>取消重启</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Scaling, starts, stops, restarts and proxy changes are refused (and audited as refused)</source>
        <translation>拒绝扩缩容、启动、停止、重启和代理变更（并在审计日志中记为已拒绝）</translation>
    </message>
    <message>
        <location line="+63"/>
        <location line="+184"/>
        <source>Restore membership</source>
        <translation>恢复代理成员</translation>
    </message>
    <message>
        <location line="-182"/>
        <source>Dismiss</source>
        <translation>忽略</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Acknowledge</source>
        <translation>确认</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Actions are allowed again; the next failed audit line stops them again</source>
        <translation>恢复允许操作；下一次审计写入失败会再次停止操作</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Proxy</source>
        <translation>代理</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Rolling restart (after a config or model change)</source>
        <translation>滚动重启（配置或模型变更后）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>keep at least </source>
        <translation>至少保留 </translation>
    </message>
    <message>
        <location line="+1"/>
        <source> active</source>
        <translation> 个活跃实例</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The restart never leaves fewer active instances of the pool in the proxy</source>
        <translation>重启期间，代理中该池的活跃实例数始终不少于此值</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Audit log</source>
        <translation>审计日志</translation>
    </message>
    <message>
        <location line="-157"/>
        <source>&amp;Warm-up / smoke test…</source>
        <translation>预热 / 冒烟测试(&amp;W)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Send small completions through the proxy: success rate, TTFT and TPOT, and the proxy&apos;s silent failures</source>
        <translation>通过代理发送小规模补全请求，检查成功率、TTFT、TPOT 以及被代理掩盖的失败</translation>
    </message>
    <message>
        <location line="+200"/>
        <source>&lt;b&gt;The proxy restarted&lt;/b&gt; and forgot the instances added or removed at runtime. Before: %1 prefill, %2 decode; now: %3 prefill, %4 decode. Restore adds back what is missing (engines already run) and takes out what was not there.</source>
        <translation>&lt;b&gt;代理已重启&lt;/b&gt;，运行时添加或移除的实例已丢失。重启前：%1 个预填充、%2 个解码；当前：%3 个预填充、%4 个解码。恢复操作会重新加入缺失的实例（引擎仍在运行），并移出原本不在的实例。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Bring the proxy&apos;s membership back to what it routed before it restarted:

%1

Apply?</source>
        <translation>将代理的成员恢复为其重启前所路由的状态：

%1

应用吗？</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Restore membership: nothing to do (%1)</source>
        <translation>恢复成员：无需操作（%1）</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>No active %1 instance to restart</source>
        <translation>没有可重启的活跃 %1 实例</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Rolling restart of the %1 pool</source>
        <translation>滚动重启 %1 池</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 active engines are restarted one at a time, node by node: each is drained out of the proxy, stopped, started again, waited for and added back. At least %2 stay active; the restart pauses on the first failure.</source>
        <translation>%1 个活跃引擎将按节点逐个重启：每个引擎先排空并移出代理，然后停止、重新启动，等待就绪后再加回代理。始终至少保留 %2 个活跃实例；遇到首个失败时重启将暂停。</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Start proxy</source>
        <translation>启动代理</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop proxy…</source>
        <translation>停止代理…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Restart proxy…</source>
        <translation>重启代理…</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Start the proxy</source>
        <translation>启动代理</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop the proxy</source>
        <translation>停止代理</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Restart the proxy</source>
        <translation>重启代理</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>%1: refused, the console is in read-only mode</source>
        <translation>%1：已拒绝，控制台处于只读模式</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1: not started, another proxy action is still running</source>
        <translation>%1：未启动，另一个代理操作仍在进行</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The proxy at %1 is stopped. While it is down every request to the cluster fails, until it is started again.</source>
        <translation>将停止位于 %1 的代理。代理停止期间，发往集群的所有请求都会失败，直至重新启动。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The proxy at %1 is stopped and started again with the profile&apos;s command line. Every request fails until it answers again.</source>
        <translation>将停止位于 %1 的代理，并按配置文件中的命令行重新启动。在其恢复响应之前，所有请求都会失败。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A started proxy knows only the instances on its command line: those added through /instances/add are forgotten. Once it answers, the Operations tab offers to restore the membership it had.</source>
        <translation>新启动的代理只知道其命令行中的实例：通过 /instances/add 添加的实例将丢失。代理恢复响应后，“操作”页会提示恢复原有的代理成员。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>It lists %1 prefill and %2 decode instances now.</source>
        <translation>代理当前列有 %1 个预填充实例和 %2 个解码实例。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Operations in progress fail while the proxy is down.</source>
        <translation>代理停止期间，正在进行的操作将会失败。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: not started, %2</source>
        <translation>%1：未启动，%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: started; progress in the Operations tab</source>
        <translation>%1：已开始，可在“操作”页查看进度</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Stopping the proxy…</source>
        <translation>正在停止代理…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Proxy stopped; checking that it no longer answers…</source>
        <translation>代理已停止；正在确认其不再响应…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Starting the proxy…</source>
        <translation>正在启动代理…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Proxy started; waiting for its /healthcheck to answer…</source>
        <translation>代理已启动；正在等待其 /healthcheck 响应…</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1: proxy start failed: %2</source>
        <translation>%1：代理启动失败：%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: proxy stop failed: %2</source>
        <translation>%1：代理停止失败：%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: proxy restart failed: %2</source>
        <translation>%1：代理重启失败：%2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: proxy started (%2)</source>
        <translation>%1：代理已启动（%2）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: proxy stopped (%2); every request fails until it is started again</source>
        <translation>%1：代理已停止（%2）；在重新启动之前，所有请求都会失败</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: proxy restarted (%2)</source>
        <translation>%1：代理已重启（%2）</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Proxy %1: /healthcheck not read yet</source>
        <translation>代理 %1：尚未读取 /healthcheck</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Proxy %1: /healthcheck answers (%2): %3 prefill and %4 decode instances</source>
        <translation>代理 %1：/healthcheck 已响应（%2）：预填充实例 %3 个，解码实例 %4 个</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Proxy %1: &lt;b&gt;/healthcheck does not answer&lt;/b&gt; (%2): %3</source>
        <translation>代理 %1：&lt;b&gt;/healthcheck 无响应&lt;/b&gt;（%2）：%3</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The console is in read-only mode</source>
        <translation>控制台处于只读模式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A proxy action is running</source>
        <translation>代理操作正在进行</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The proxy answers /healthcheck: it runs already (Restart stops and starts it)</source>
        <translation>代理正在响应 /healthcheck：它已在运行（“重启”会先停止再启动它）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Start the proxy with the profile&apos;s command line (a running proxy is not started twice)</source>
        <translation>按配置文件中的命令行启动代理（已在运行的代理不会重复启动）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop the proxy: every request fails while it is down</source>
        <translation>停止代理：代理停止期间所有请求都会失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop and start the proxy: it forgets the instances added at runtime</source>
        <translation>停止并重新启动代理：运行时添加的实例将丢失</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>%1 of %2 restarted</source>
        <translation>已重启 %1/%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> — &lt;b&gt;paused&lt;/b&gt;: %1</source>
        <translation> — &lt;b&gt;已暂停&lt;/b&gt;：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> — done</source>
        <translation> — 已完成</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> — cancelled</source>
        <translation> — 已取消</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 — every change to the cluster, one JSON line each</source>
        <translation>%1 — 记录对集群的每一次更改，每条一行 JSON</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 — nothing written yet</source>
        <translation>%1 — 尚未写入任何内容</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n unreadable line(s), e.g. %1</source>
        <translation>
            <numerusform>%n 行无法读取，例如 %1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The audit log could not be written: every change to the cluster is refused until you acknowledge this.
%1</source>
        <translation>审计日志无法写入：在您确认之前，拒绝对集群的任何变更。
%1</translation>
    </message>
</context>
<context>
    <name>pd::PlotLinesItem</name>
    <message>
        <location filename="../../widgets/charts/plotlinesitem.cpp" line="+187"/>
        <location line="+10"/>
        <source>no data</source>
        <translation>无数据</translation>
    </message>
</context>
<context>
    <name>pd::PoolScaleControl</name>
    <message>
        <location filename="../../widgets/scale/poolscalecontrol.cpp" line="+19"/>
        <source>Apply…</source>
        <translation>应用…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Decode pool</source>
        <translation>解码池</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Prefill pool</source>
        <translation>预填充池</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Instances wanted in the proxy&apos;s %1 pool</source>
        <translation>代理 %1 池的目标实例数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 pool size</source>
        <translation>%1 池大小</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+86"/>
        <source>Show the plan and confirm</source>
        <translation>显示计划并确认</translation>
    </message>
    <message>
        <location line="-80"/>
        <source>Scale to</source>
        <translation>扩缩容至</translation>
    </message>
    <message numerus="yes">
        <location line="+20"/>
        <source>%n active</source>
        <translation>
            <numerusform>%n 个活跃</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n waiting</source>
        <translation>
            <numerusform>%n 个等待中</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n draining</source>
        <translation>
            <numerusform>%n 个排空中</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>of %n in the profile</source>
        <translation>
            <numerusform>配置文件中共 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Read-only mode: scaling is disabled</source>
        <translation>只读模式：已禁用扩缩容</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Operations on this pool are running</source>
        <translation>该池上有操作正在进行</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Scaling is off: read-only mode. Way out: untick Read-only at the top of this tab.</source>
        <translation>扩缩容已关闭：只读模式。解决办法：在本页顶部取消勾选“只读”。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Apply waits: an operation on this pool runs. Way out: let it finish, or Cancel it below.</source>
        <translation>“应用”需等待：此池上有操作正在运行。解决办法：等待其结束，或在下方取消它。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Apply waits: %1 runs. Way out: let it finish, or Cancel it below.</source>
        <translation>“应用”需等待：%1 正在运行。解决办法：等待其结束，或在下方取消它。</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n instance(s) draining since %1, %2 request(s) in flight: a busy proxy removes them only when no request is in flight. Ways out: wait for a quiet moment; or scale up, which takes them back and restarts the proxy with its current lists if it stays busy (the requests in flight then fail).</source>
        <translation>
            <numerusform>%n 个实例自 %1 起排空中，在途请求 %2 个：繁忙的代理只有在没有任何请求在途时才会移除它们。解决办法：等待空闲时刻；或扩容，将它们收回，如果代理一直繁忙则用其当前实例列表重启代理（届时在途的请求会失败）。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>pd::PoolsView</name>
    <message>
        <location filename="../../widgets/poolsview.cpp" line="+44"/>
        <source>Requests</source>
        <translation>请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>KV cache usage</source>
        <translation>KV 缓存使用率</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>mean</source>
        <translation>平均</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>max</source>
        <translation>最大</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>Tokens per second</source>
        <translation>每秒 token 数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>generation</source>
        <translation>生成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time to first token</source>
        <translation>首 token 时延</translation>
    </message>
    <message>
        <location line="-5"/>
        <location line="+6"/>
        <location line="+3"/>
        <location line="+3"/>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>Finished requests</source>
        <translation>已完成请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>all reasons</source>
        <translation>全部原因</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>length limit</source>
        <translation>达到长度上限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Aborted and failed requests</source>
        <translation>中止和失败的请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>aborted</source>
        <translation>中止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Queue time</source>
        <translation>排队时间</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+6"/>
        <location line="+3"/>
        <location line="+3"/>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Time per output token</source>
        <translation>每输出 token 时延</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>End-to-end latency</source>
        <translation>端到端时延</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Prefix cache hit rate</source>
        <translation>前缀缓存命中率</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>hits / queried tokens</source>
        <translation>命中 / 查询的 token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Preemptions</source>
        <translation>抢占</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>preemptions</source>
        <translation>抢占次数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MTP acceptance</source>
        <translation>MTP 接受率</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>accepted draft tokens</source>
        <translation>已接受的草稿 token</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Back to pools</source>
        <translation>返回池视图</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Save the visible series as CSV (right-click a chart to save it as PNG)</source>
        <translation>将可见的数据序列保存为 CSV（右键单击图表可保存为 PNG）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Export series</source>
        <translation>导出数据序列</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Last 5 minutes</source>
        <translation>最近 5 分钟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last hour</source>
        <translation>最近 1 小时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last 24 hours</source>
        <translation>最近 24 小时</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>&lt;b&gt;Proxy&lt;/b&gt; (/healthcheck)</source>
        <translation>&lt;b&gt;代理&lt;/b&gt;（/healthcheck）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Prefill pool</source>
        <translation>预填充池</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Decode pool</source>
        <translation>解码池</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>no data</source>
        <translation>无数据</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>&lt;b&gt;Engine %1&lt;/b&gt;</source>
        <translation>&lt;b&gt;引擎 %1&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&lt;b&gt;Pools&lt;/b&gt;</source>
        <translation>&lt;b&gt;池&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>proxy unreachable</source>
        <translation>代理不可达</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>proxy: %1 prefill · %2 decode instances%3</source>
        <translation>代理：%1 个预填充 · %2 个解码实例%3</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source> · %n request(s) in flight</source>
        <translation>
            <numerusform> · %n 个请求处理中</numerusform>
        </translation>
    </message>
    <message>
        <location line="+80"/>
        <source>no cluster is open</source>
        <translation>未打开集群</translation>
    </message>
</context>
<context>
    <name>pd::ProblemModel</name>
    <message>
        <location filename="../../core/models/problemmodel.cpp" line="+87"/>
        <source>critical</source>
        <comment>problem severity</comment>
        <translation>严重</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>error</source>
        <comment>problem severity</comment>
        <translation>错误</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>warning</source>
        <comment>problem severity</comment>
        <translation>警告</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 (acknowledged)</source>
        <translation>%1（已确认）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Evidence:</source>
        <translation>依据：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next step: %1</source>
        <translation>下一步：%1</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Severity</source>
        <translation>级别</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Since</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Evidence</source>
        <translation>依据</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Next step</source>
        <translation>下一步</translation>
    </message>
</context>
<context>
    <name>pd::ProblemsPanel</name>
    <message>
        <location filename="../../widgets/triageviews/problemspanel.cpp" line="+84"/>
        <source>&amp;Acknowledge</source>
        <translation>确认(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Remove from proxy</source>
        <translation>移出代理(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restart &amp;group</source>
        <translation>重启组(&amp;G)</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>No problems: every observed engine serves and the proxy answers.</source>
        <translation>没有问题：所有已观测的引擎均在服务中，代理响应正常。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Silence notifications for the selected problems until they clear</source>
        <translation>在所选问题消除前不再为其发送通知</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>&lt;b&gt;No problems&lt;/b&gt;: every observed engine serves and the proxy answers.</source>
        <translation>&lt;b&gt;没有问题&lt;/b&gt;：所有已观测的引擎都在服务，代理也在应答。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;1 problem&lt;/b&gt;</source>
        <translation>&lt;b&gt;1 个问题&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&lt;b&gt;%1 problems&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1 个问题&lt;/b&gt;</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n critical</source>
        <translation>
            <numerusform>%n 个严重</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source> · %n acknowledged</source>
        <translation>
            <numerusform> · %n 个已确认</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source> — click one to see its engine</source>
        <translation> — 点击问题可查看对应引擎</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Stop every rank of %1 and start them all together: the only way out of a broken group, and the only restart of a coupled group&apos;s rank</source>
        <translation>停止 %1 的每个 rank 并将它们一起启动：这是损坏的组唯一的出路，也是耦合组中 rank 唯一的重启方式</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>Take the %n selected dead engine(s) out of the proxy, which keeps routing to them</source>
        <translation>
            <numerusform>将选中的 %n 个失效引擎移出代理（代理仍在向它们路由）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Select stalled, unhealthy or unreachable engines to take them out of the proxy</source>
        <translation>选择停滞、不健康或不可达的引擎，将其移出代理</translation>
    </message>
</context>
<context>
    <name>pd::ProfileValidator</name>
    <message>
        <location filename="../../core/cluster/fieldrules.cpp" line="+22"/>
        <source>contains a newline</source>
        <translation>包含换行符</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+120"/>
        <source>contains the control character U+%1</source>
        <translation>包含控制字符 U+%1</translation>
    </message>
    <message>
        <location line="-118"/>
        <source>contains the non-ASCII character &apos;%1&apos;</source>
        <translation>包含非 ASCII 字符“%1”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>contains &apos;%1&apos;, which a shell would interpret</source>
        <translation>包含会被 shell 解释的字符“%1”</translation>
    </message>
    <message>
        <location line="+12"/>
        <location line="+13"/>
        <location line="+25"/>
        <location line="+28"/>
        <source>is empty</source>
        <translation>为空</translation>
    </message>
    <message>
        <location line="-64"/>
        <source>is longer than 63 characters</source>
        <translation>长度超过 63 个字符</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 (use letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;)</source>
        <translation>%1（只能使用字母、数字、&apos;.&apos;、&apos;_&apos; 和 &apos;-&apos;）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>must not start with &apos;-&apos; or &apos;.&apos;</source>
        <translation>不能以 &apos;-&apos; 或 &apos;.&apos; 开头</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+6"/>
        <source>%1 (expected an IP address or a host name)</source>
        <translation>%1（应为 IP 地址或主机名）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>is not a valid IP address or host name</source>
        <translation>不是有效的 IP 地址或主机名</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>is not a valid IPv4 address</source>
        <translation>不是有效的 IPv4 地址</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>is longer than 32 characters</source>
        <translation>长度超过 32 个字符</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+14"/>
        <location line="+14"/>
        <source>must not start with &apos;-&apos;</source>
        <translation>不能以 &apos;-&apos; 开头</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>is longer than 15 characters (the kernel&apos;s limit for interface names)</source>
        <translation>长度超过 15 个字符（内核对网卡名称的长度限制）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>is longer than 4096 characters</source>
        <translation>长度超过 4096 个字符</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 (paths may hold letters, digits and . _ / ~ + @ % = , : -)</source>
        <translation>%1（路径只能包含字母、数字和 . _ / ~ + @ % = , : -）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>may use &apos;~&apos; only as its first character (&apos;~/...&apos;)</source>
        <translation>只能在开头使用 &apos;~&apos;（&apos;~/...&apos;）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>is not a valid environment variable name</source>
        <translation>不是有效的环境变量名</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>is not the name of an API key or token variable (*_API_KEY, *_TOKEN): the console would send its value to the proxy and engines as a bearer token</source>
        <translation>不是 API 密钥或令牌变量的名称（*_API_KEY、*_TOKEN）：控制台会把它的值作为 Bearer 令牌发送给代理和引擎</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>contains a line break</source>
        <translation>包含换行符</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>user %1</source>
        <translation>用户名%1</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+16"/>
        <source>has an invalid port</source>
        <translation>端口无效</translation>
    </message>
    <message>
        <location line="-12"/>
        <location line="+14"/>
        <source>host %1</source>
        <translation>主机%1</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>is not host:port</source>
        <translation>不是 host:port 格式</translation>
    </message>
    <message>
        <location filename="../../core/cluster/profilevalidator.cpp" line="+38"/>
        <source>%1 &quot;%2&quot; %3</source>
        <comment>what the field is, its value, the complaint</comment>
        <translation>%1“%2”%3</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>container name</source>
        <translation>容器名</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>environment script</source>
        <translation>环境脚本</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>model path</source>
        <translation>模型路径</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no model path: engines of this role cannot be started</source>
        <translation>未设置模型路径：无法启动该角色的引擎</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>served model name</source>
        <translation>服务模型名称</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>argument</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>variable name</source>
        <translation>变量名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>dp_coupling is &quot;independent&quot; but the %1 arguments enable expert parallelism: the ranks of an expert-parallel DP group run every forward pass together, so a dead rank hangs the whole group; set &quot;coupled&quot;</source>
        <translation>dp_coupling 为 &quot;independent&quot;，但 %1 的参数启用了专家并行：专家并行 DP 组的各 rank 每次前向计算都同步进行，一个 rank 退出会使整组卡住；请设为 &quot;coupled&quot;</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>kv_transfer_config has no kv_role; %1 engines need &quot;%2&quot;</source>
        <translation>kv_transfer_config 缺少 kv_role；%1 引擎需要“%2”</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>kv_role &quot;kv_both&quot; on the %1 pool: PD disaggregation expects &quot;%2&quot;</source>
        <translation>%1 池的 kv_role 为“kv_both”：PD 分离部署应为“%2”</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>kv_role &quot;%1&quot; does not match the %2 pool, which needs &quot;%3&quot;</source>
        <translation>kv_role“%1”与 %2 池不匹配，该池需要“%3”</translation>
    </message>
    <message>
        <location line="+325"/>
        <source>cluster name</source>
        <translation>集群名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>template path</source>
        <translation>模板路径</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>run directory</source>
        <translation>运行目录</translation>
    </message>
    <message>
        <location line="-309"/>
        <source>node name</source>
        <translation>节点名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>address</source>
        <translation>地址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SSH user</source>
        <translation>SSH 用户</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>identity file</source>
        <translation>身份文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>jump host</source>
        <translation>跳板机</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>NIC name</source>
        <translation>网卡名称</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>local IP</source>
        <translation>本地 IP</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>NPU IP</source>
        <translation>NPU IP</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>node name &quot;%1&quot; is already used by /nodes/%2</source>
        <translation>节点名称“%1”已被 /nodes/%2 使用</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>address %1 is already node &quot;%2&quot; (/nodes/%3)</source>
        <translation>地址 %1 已属于节点“%2”（/nodes/%3）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>address %1 is also node &quot;%2&quot; of the %3 pool: one machine serves both pools, so their NPUs and ports must not overlap</source>
        <translation>地址 %1 同时也是 %3 池的节点“%2”：同一台机器服务两个池，其 NPU 和端口不得重叠</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>node &quot;%1&quot; runs no engines</source>
        <translation>节点“%1”未运行任何引擎</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>DP master address</source>
        <translation>DP 主节点地址</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>dp_size_local %1 exceeds dp_size %2</source>
        <translation>dp_size_local %1 超过 dp_size %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>ranks %1-%2 run past dp_size %3 (ranks are 0-%4)</source>
        <translation>rank %1-%2 超出 dp_size %3（rank 范围为 0-%4）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>engine ports %1-%2 run past 65535</source>
        <translation>引擎端口 %1-%2 超出 65535</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>node &quot;%1&quot; needs %2 NPUs (TP size × engines) but has %3</source>
        <translation>节点“%1”需要 %2 个 NPU（TP 大小 × 引擎数），但只有 %3 个</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>DP group with master %1:%2</source>
        <translation>主节点为 %1:%2 的 DP 组</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>%1: dp_size %2 here but %3 at %4</source>
        <translation>%1：此处 dp_size 为 %2，但 %4 处为 %3</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1: the master address is none of the group&apos;s nodes (%2)</source>
        <translation>%1：主节点地址不属于该组的任何节点（%2）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: dp_size is %2 but the dp_size_local of its nodes (%3) add up to %4</source>
        <translation>%1：dp_size 为 %2，但其节点（%3）的 dp_size_local 之和为 %4</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1: no engine has DP rank %2</source>
        <translation>%1：没有引擎的 DP rank 为 %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: DP rank %2 is claimed by %3</source>
        <translation>%1：DP rank %2 被 %3 同时占用</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>engine DP rank %1 of node %2</source>
        <translation>节点 %2 的引擎 DP rank %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>DP master port of the %1 group</source>
        <translation>%1 组的 DP 主节点端口</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>kv_port of node %1</source>
        <translation>节点 %1 的 kv_port</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the proxy</source>
        <translation>代理</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>port %1 on %2 is used twice: %3</source>
        <translation>%2 上的端口 %1 被重复使用：%3</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>this machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>the prefill pool is empty: no node with role &quot;prefill&quot; runs an engine</source>
        <translation>预填充池为空：没有角色为“prefill”的节点运行引擎</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the decode pool is empty: no node with role &quot;decode&quot; runs an engine</source>
        <translation>解码池为空：没有角色为“decode”的节点运行引擎</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>proxy address</source>
        <translation>代理地址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>bind host</source>
        <translation>绑定主机</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>proxy script</source>
        <translation>代理脚本</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>API key variable</source>
        <translation>API 密钥变量</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>cannot use the CA file: %1</source>
        <translation>无法使用 CA 文件：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>ca_file is set but neither the proxy nor the engines use https</source>
        <translation>设置了 ca_file，但代理和引擎都未使用 https</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>instance &quot;%1&quot; %2</source>
        <translation>实例“%1”%2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 is listed twice (the proxy merges duplicates silently)</source>
        <translation>%1 被列出两次（代理会静默合并重复项）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>DP group %1 (%2 ranks on %3) is not in the proxy&apos;s %4 list: it gets no traffic until it is started and added as a whole</source>
        <translation>DP 组 %1（%2 个 rank，位于 %3）不在代理的 %4 列表中：在整组启动并加入之前不会收到流量</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>engine %1 (node %2, DP rank %3) is not in the proxy&apos;s %4 list: it gets no traffic</source>
        <translation>引擎 %1（节点 %2，DP rank %3）不在代理的 %4 列表中：不会收到流量</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the proxy&apos;s %1 list names %2, which is no %1 engine of this profile</source>
        <translation>代理的 %1 列表包含 %2，但它不是此配置文件中的 %1 引擎</translation>
    </message>
</context>
<context>
    <name>pd::PrometheusClient</name>
    <message>
        <location filename="../../core/net/prometheusclient.cpp" line="+102"/>
        <source>answer larger than %1 MB</source>
        <translation>响应超过 %1 MB</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>no answer within %1 ms</source>
        <translation>%1 ms 内无响应</translation>
    </message>
    <message>
        <location line="+22"/>
        <location line="+4"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+11"/>
        <source> (check the bearer token)</source>
        <translation>（请检查 Bearer 令牌）</translation>
    </message>
</context>
<context>
    <name>pd::PrometheusFeed</name>
    <message>
        <location filename="../../core/net/prometheusfeed.cpp" line="+165"/>
        <source>the generation probe answered a %1, not a vector</source>
        <translation>指标版本探测查询返回了 %1，而不是 vector</translation>
    </message>
    <message numerus="yes">
        <location line="+53"/>
        <source>%n series without the label &quot;%1&quot;</source>
        <translation>
            <numerusform>%n 个序列缺少标签“%1”</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>Prometheus scrapes none of the profile&apos;s %n engine(s) (matched by the label &quot;%1&quot; as host:port); it has: %2</source>
        <translation>
            <numerusform>Prometheus 未抓取配置文件中 %n 个引擎中的任何一个（按标签“%1”以 host:port 匹配）；其现有目标：%2</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>no vLLM targets at all</source>
        <translation>完全没有 vLLM 目标</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>backfill: %1</source>
        <translation>回填：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>backfill: a range selector answered a result that is not a matrix</source>
        <translation>回填：范围选择器返回的结果不是 matrix</translation>
    </message>
    <message>
        <location line="+87"/>
        <source>not a Prometheus target (no series with %1=&quot;%2&quot;)</source>
        <translation>不是 Prometheus 抓取目标（没有 %1=&quot;%2&quot; 的序列）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Prometheus has not scraped it for %1 s</source>
        <translation>Prometheus 已有 %1 秒未抓取该目标</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>refresh: a range selector answered a result that is not a matrix</source>
        <translation>刷新：范围选择器返回的结果不是 matrix</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>refresh: %1</source>
        <translation>刷新：%1</translation>
    </message>
</context>
<context>
    <name>pd::PrometheusSource</name>
    <message>
        <location filename="../../core/metrics/promvllmqueries.cpp" line="+45"/>
        <source>vLLM 0.9.1 names</source>
        <translation>vLLM 0.9.1 指标名</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>current vLLM names</source>
        <translation>当前 vLLM 指标名</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>unknown metric generation</source>
        <translation>指标命名版本未知</translation>
    </message>
    <message>
        <location filename="../../core/metrics/promroundassembler.cpp" line="+86"/>
        <source>unknown metric generation: Prometheus has samples of the target, but neither vllm:gpu_cache_usage_perc (vLLM 0.9.1) nor vllm:kv_cache_usage_perc (current vLLM)</source>
        <translation>无法识别的指标版本：Prometheus 有该目标的样本，但既没有 vllm:gpu_cache_usage_perc（vLLM 0.9.1），也没有 vllm:kv_cache_usage_perc（当前 vLLM）</translation>
    </message>
    <message>
        <location line="+137"/>
        <source>Prometheus reports the target down (up == 0)</source>
        <translation>Prometheus 报告该目标已下线（up == 0）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prometheus reports the target down: %1</source>
        <translation>Prometheus 报告该目标已下线：%1</translation>
    </message>
</context>
<context>
    <name>pd::ProxyHealthCharts</name>
    <message>
        <location filename="../../widgets/proxyhealthcharts.cpp" line="+31"/>
        <source>Proxy: requests in flight</source>
        <translation>代理：进行中的请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Proxy: instances in the pools</source>
        <translation>代理：池中实例数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Canary: success (last minute)</source>
        <translation>金丝雀：成功率（最近一分钟）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Canary: end-to-end latency</source>
        <translation>金丝雀：端到端延迟</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>e2e</source>
        <translation>端到端</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>in flight</source>
        <translation>进行中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>the proxy has not answered /healthcheck</source>
        <translation>代理未响应 /healthcheck</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no data</source>
        <translation>无数据</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>this proxy does not report requests in flight
(request_num: vllm-ascend v0.21 and later)</source>
        <translation>此代理不报告进行中的请求
（request_num：vllm-ascend v0.21 及以后版本）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>the canary is off (Preferences ▸ Watchdog)</source>
        <translation>金丝雀已关闭（首选项 ▸ 看护）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no canary answer yet</source>
        <translation>尚无金丝雀应答</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no successful canary request</source>
        <translation>没有成功的金丝雀请求</translation>
    </message>
</context>
<context>
    <name>pd::ScaleOps</name>
    <message>
        <location filename="../../core/ops/dpgroupoperation.cpp" line="+65"/>
        <location filename="../../core/ops/scalein.cpp" line="+18"/>
        <location filename="../../core/ops/scaleout.cpp" line="+16"/>
        <source>Preflight</source>
        <translation>预检</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove every rank from the proxy</source>
        <translation>从代理中移除每个 rank</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Drain: wait until no rank runs a request</source>
        <translation>排空：等待所有 rank 都没有运行中的请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop every rank</source>
        <translation>停止每个 rank</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verify every rank stopped</source>
        <translation>确认每个 rank 已停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Start every rank at once</source>
        <translation>同时启动每个 rank</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Wait until every rank answers /v1/models and /health</source>
        <translation>等待每个 rank 响应 /v1/models 和 /health</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add every rank to the proxy</source>
        <translation>将每个 rank 加入代理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Wait until the proxy lists every rank</source>
        <translation>等待代理列出每个 rank</translation>
    </message>
    <message>
        <location filename="../../core/ops/scalein.cpp" line="+1"/>
        <source>Remove from the proxy</source>
        <translation>移出代理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Drain: wait until it runs no request</source>
        <translation>排空：等待其不再运行任何请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop the engine</source>
        <translation>停止引擎</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verify it stopped</source>
        <translation>确认已停止</translation>
    </message>
    <message>
        <location filename="../../core/ops/scaleoperation.cpp" line="+45"/>
        <source>scale-out</source>
        <comment>operation kind</comment>
        <translation>扩容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>scale-in</source>
        <comment>operation kind</comment>
        <translation>缩容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>start</source>
        <comment>operation kind</comment>
        <translation>启动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stop</source>
        <comment>operation kind</comment>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>group-scale-out</source>
        <comment>operation kind</comment>
        <translation>组扩容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>group-start</source>
        <comment>operation kind</comment>
        <translation>组启动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>group-scale-in</source>
        <comment>operation kind</comment>
        <translation>组缩容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>group-restart</source>
        <comment>operation kind</comment>
        <translation>组重启</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>scale-in-restart</source>
        <comment>operation kind</comment>
        <translation>缩容（重启代理）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>scale-out-restart</source>
        <comment>operation kind</comment>
        <translation>扩容（重启代理）</translation>
    </message>
    <message>
        <location filename="../../core/ops/scaleout.cpp" line="+1"/>
        <source>Start the engine</source>
        <translation>启动引擎</translation>
    </message>
    <message>
        <location filename="../../core/ops/proxyrestartscale.cpp" line="+44"/>
        <location filename="../../core/ops/scaleout.cpp" line="+1"/>
        <source>Wait for /v1/models and /health</source>
        <translation>等待 /v1/models 和 /health 就绪</translation>
    </message>
    <message>
        <location filename="../../core/ops/scaleout.cpp" line="+1"/>
        <source>Add to the proxy</source>
        <translation>加入代理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Wait until the proxy lists it</source>
        <translation>等待代理列出该实例</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verify it receives traffic</source>
        <translation>确认其收到流量</translation>
    </message>
    <message>
        <location filename="../../core/ops/rollingrestart.cpp" line="+27"/>
        <location filename="../../core/ops/scaleplan.cpp" line="+26"/>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <location line="+0"/>
        <location filename="../../core/ops/scaleplan.cpp" line="+0"/>
        <source>decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <location filename="../../core/ops/scaleplan.cpp" line="+25"/>
        <source>%1 or %2</source>
        <comment>a list of pool sizes</comment>
        <translation>%1 或 %2</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>Scale the %1 pool from %2 to %3 instance(s).</source>
        <translation>将%1池从 %2 个实例扩缩容至 %3 个。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Nothing to do.</source>
        <translation>无需操作。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>  start DP group %1: all %2 ranks at once, wait until every rank serves (one deadline), then add all</source>
        <translation>  启动 DP 组 %1：同时启动全部 %2 个 rank，等待每个 rank 服务（一个截止时间），然后全部加入</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>  start %1 (node %2, rank %3), listed when the proxy restarts</source>
        <translation>  启动 %1（节点 %2，rank %3），代理重启时加入其列表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>  start and add  %1 (node %2, rank %3)</source>
        <translation>  启动并加入  %1（节点 %2，rank %3）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>  remove DP group %1: all %2 ranks out of the proxy, drained, then stopped together</source>
        <translation>  移除 DP 组 %1：全部 %2 个 rank 移出代理并排空，然后一起停止</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>  stop %1 (node %2, rank %3) once the restarted proxy no longer lists it</source>
        <translation>  停止 %1（节点 %2，rank %3），在重启后的代理不再列出它之后</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>  remove and stop %1 (node %2, rank %3)</source>
        <translation>  移出并停止 %1（节点 %2，rank %3）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This proxy cannot change its membership at runtime (no /instances API): applying RESTARTS it with the %1 list [%2] (%3 instance(s)). Every new request fails while it restarts (seconds); it first waits until no request is in flight.</source>
        <translation>此代理无法在运行时更改成员（没有 /instances API）：应用将以 %1 列表 [%2]（%3 个实例）重启它。重启期间（数秒）所有新请求都会失败；重启前先等待直到没有在途请求。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 request(s) running on the leaving engines finish before they stop; new requests go elsewhere.</source>
        <translation>待移出引擎上正在运行的 %1 个请求会在停止前完成；新请求将转到其他实例。</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n engine(s) to start are still draining out of the proxy, which ignores an add until the drain ends (only when no request is in flight). If that moment does not come, the proxy is restarted with its current lists, where allowed: the requests in flight then fail.</source>
        <translation>
            <numerusform>要启动的 %n 个引擎仍在从代理中排空，排空结束前代理会忽略添加（只有在没有请求在途时才会结束）。如果这一刻不到来，在允许的情况下会以当前列表重启代理：届时在途的请求会失败。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>This removes the last %1 instance: every request fails until one is added. Needs the override.</source>
        <translation>此操作会移除最后一个%1实例：在添加新实例之前，所有请求都会失败。需要强制覆盖。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cannot apply: %1</source>
        <translation>无法执行：%1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>the nearest are %1 and %2</source>
        <translation>最接近的是 %1 和 %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the nearest is %1</source>
        <translation>最接近的是 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 can be %2: its coupled DP groups start and stop only as whole groups; %3</source>
        <translation>%1 只能是 %2：其耦合 DP 组只能整组启动和停止；%3</translation>
    </message>
    <message>
        <location line="+238"/>
        <source>the profile has %1 validation error(s): fix them first</source>
        <translation>配置文件有 %1 个校验错误：请先修复</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>read-only mode</source>
        <translation>只读模式</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a pool cannot have fewer than 0 instances</source>
        <translation>池的实例数不能少于 0</translation>
    </message>
    <message>
        <location line="-152"/>
        <source>DP group %1 has %2 rank(s) that do not answer: the group is broken, restart the whole group</source>
        <translation>DP 组 %1 有 %2 个 rank 无应答：该组已损坏，请重启整个组</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>DP group %1 is partly in the proxy (%2 of %3 ranks)</source>
        <translation>DP 组 %1 只有部分在代理中（%3 个 rank 中的 %2 个）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>DP group %1 has %2 rank(s) still WAITING in the proxy</source>
        <translation>DP 组 %1 仍有 %2 个 rank 在代理中处于 WAITING 状态</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>%1 instance(s) are still waiting to be activated; they cannot be removed now</source>
        <translation>%1 个实例仍在等待激活；现在无法移除</translation>
    </message>
    <message>
        <location line="-64"/>
        <source>DP group %1 has %2 rank(s) draining</source>
        <translation>DP 组 %1 有 %2 个 rank 正在排空</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no set of whole DP groups takes the %1 pool from %2 to %3 now</source>
        <translation>目前没有任何整 DP 组的组合能把 %1 资源池从 %2 变为 %3</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>the profile has only %1 more %2 engine(s) that are not in the proxy</source>
        <translation>配置文件中只剩 %1 个未加入代理的%2引擎</translation>
    </message>
    <message>
        <location line="+88"/>
        <source>no load reading for %1</source>
        <translation>%1 无负载读数</translation>
    </message>
    <message numerus="yes">
        <location line="+47"/>
        <source>%n listed instance(s) do not answer and are not counted (dead in the proxy, which keeps routing to them): %1. Take them out with Remove from proxy, or restart them</source>
        <translation>
            <numerusform>%n 个已列出的实例无应答，不计入池大小（代理中已失效，代理仍向其路由）：%1。请用“从代理移除”将其移出，或重启它们</numerusform>
        </translation>
    </message>
    <message>
        <location line="-29"/>
        <source>P:D would be %1:%2 (%3), outside the profile&apos;s bounds %4-%5</source>
        <translation>P:D 将为 %1:%2（%3），超出配置文件的范围 %4-%5</translation>
    </message>
    <message>
        <location filename="../../core/ops/rollingrestart.cpp" line="+126"/>
        <location line="+43"/>
        <source>cannot read the proxy&apos;s membership: %1</source>
        <translation>无法读取代理成员状态：%1</translation>
    </message>
    <message>
        <location line="-39"/>
        <source>%1 skipped: not active in the proxy (%2)</source>
        <translation>已跳过 %1：不在代理中活跃（%2）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>restarting %1 would leave %2 active %3 instance(s), below the floor of %4</source>
        <translation>重启 %1 将使活跃的%3实例只剩 %2 个，低于下限 %4</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>rolling restart</source>
        <translation>滚动重启</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>DP group %1 skipped: none of its ranks is active in the proxy</source>
        <translation>已跳过 DP 组 %1：其 rank 都不在代理中活跃</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>restarting DP group %1 would leave %2 active %3 instance(s), below the floor of %4</source>
        <translation>重启 DP 组 %1 会只剩 %2 个活跃的 %3 实例，低于下限 %4</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>DP group %1 restarted</source>
        <translation>DP 组 %1 已重启</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1 is stopped but the proxy still lists it as draining after %2 s: the proxy finalises drains only when no request is in flight; resume when traffic allows</source>
        <translation>%1 已停止，但 %2 秒后代理仍将其列为排空中：代理只在没有在途请求时才完成排空；请在流量允许时继续</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 stopped; waiting for the proxy to finalise its drain</source>
        <translation>%1 已停止；正在等待代理完成排空</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>%1 was stopped but did not come back: %2</source>
        <translation>%1 已停止，但未能恢复：%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 restarted</source>
        <translation>%1 已重启</translation>
    </message>
    <message>
        <location filename="../../core/ops/proxyrestartscale.cpp" line="-1"/>
        <source>Start the new engines</source>
        <translation>启动新引擎</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Wait until no request is in flight</source>
        <translation>等待没有在途请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restart the proxy with the new lists</source>
        <translation>以新的实例列表重启代理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verify the proxy&apos;s counts</source>
        <translation>核对代理的实例数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop the engines that left</source>
        <translation>停止已移出的引擎</translation>
    </message>
</context>
<context>
    <name>pd::ScalePanel</name>
    <message>
        <location filename="../../widgets/scale/scalepanel.cpp" line="+62"/>
        <source>Cancel operations</source>
        <translation>取消操作</translation>
    </message>
    <message>
        <location line="+97"/>
        <source>Reading the %1 engines&apos; load…</source>
        <translation>正在读取 %1 引擎的负载…</translation>
    </message>
    <message numerus="yes">
        <location line="+17"/>
        <source>the proxy already lists %n active %1 instance(s)</source>
        <translation>
            <numerusform>代理已列出 %n 个活动的 %1 实例</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Nothing to apply: %1</source>
        <translation>无需执行：%1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Restarting the proxy with the new lists: %1</source>
        <translation>正在以新列表重启代理：%1</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>%n operation(s) started: %1</source>
        <translation>
            <numerusform>已启动 %n 个操作：%1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Not applied: %1</source>
        <translation>未应用：%1</translation>
    </message>
    <message>
        <location line="-9"/>
        <location line="+11"/>
        <source>Not applied.</source>
        <translation>未应用。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Scale the %1 pool</source>
        <translation>%1 池扩缩容</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Do not wait for the requests in flight: they fail when the proxy stops</source>
        <translation>不等待在途请求：代理停止时它们会失败</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>I know this empties the %1 pool: every request fails until an instance is added</source>
        <translation>我了解这会清空 %1 池：在添加实例之前，所有请求都会失败</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
</context>
<context>
    <name>pd::SettingsDialog</name>
    <message>
        <location filename="../../widgets/settingsdialog.cpp" line="+37"/>
        <location line="+1"/>
        <location line="+1"/>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <location line="+1"/>
        <location line="+12"/>
        <source> polls</source>
        <translation> 次轮询</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>Start in read-only mode (every change to the cluster refused)</source>
        <translation>以只读模式启动（拒绝对集群的任何更改）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reopen the last profile at start</source>
        <translation>启动时重新打开上次的配置文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Desktop notifications for new problems</source>
        <translation>出现新问题时发送桌面通知</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+6"/>
        <location line="+3"/>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>Remove a failing instance from the proxy automatically (auto-eject)</source>
        <translation>自动从代理移除故障实例（自动摘除）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restart a broken DP group and bring it back automatically (auto-heal)</source>
        <translation>自动重启损坏的 DP 组并将其加回（自动修复）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Send a canary request through the proxy (client impact)</source>
        <translation>通过代理发送金丝雀请求（衡量客户端影响）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Critical only</source>
        <translation>仅严重</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Critical and errors</source>
        <translation>严重和错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Critical, errors and warnings</source>
        <translation>严重、错误和警告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>~/.ssh/known_hosts</source>
        <translation>~/.ssh/known_hosts</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>default: %1</source>
        <translation>默认：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Polling and state</source>
        <translation>轮询与状态</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Engine &amp;poll interval:</source>
        <translation>引擎轮询间隔(&amp;P)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Engine poll &amp;timeout:</source>
        <translation>引擎轮询超时(&amp;T)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pro&amp;xy health interval:</source>
        <translation>代理健康检查间隔(&amp;X)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Metrics &amp;stale after:</source>
        <translation>指标过期阈值(&amp;S)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Unreachable after:</source>
        <translation>不可达阈值(&amp;U)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sta&amp;lled after:</source>
        <translation>停滞阈值(&amp;L)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Looks and language</source>
        <translation>外观与语言</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>T&amp;heme:</source>
        <translation>主题(&amp;H)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;i&gt;The language applies at the next start.&lt;/i&gt;</source>
        <translation>&lt;i&gt;语言设置在下次启动时生效。&lt;/i&gt;</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Operations</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;known_hosts file:</source>
        <translation>known_hosts 文件(&amp;K)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Audit log:</source>
        <translation>审计日志(&amp;A)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;i&gt;The files apply at the next start.&lt;/i&gt;</source>
        <translation>&lt;i&gt;文件设置在下次启动时生效。&lt;/i&gt;</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Notifications</source>
        <translation>通知</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Notify &amp;for:</source>
        <translation>通知级别(&amp;F)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>At most one &amp;every:</source>
        <translation>最短通知间隔(&amp;E)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Watchdog</source>
        <translation>看门狗</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Never the last instance of a pool, never a WAITING one, a coupled DP group only whole; every ejection audited; added back once it serves again.</source>
        <translation>绝不摘除池中最后一个实例或 WAITING 实例；耦合 DP 组只整体摘除；每次摘除都记入审计日志；恢复服务后自动加回。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>https://… (each problem as it appears and clears, as JSON)</source>
        <translation>https://…（每个问题出现和消除时以 JSON 发送）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A broken coupled DP group is ejected, restarted as one group and added back once it serves; one group at a time, at most two an hour, never while an operator acts on the pool; a proxy that stays busy is restarted with its current lists (its requests in flight fail). Every step audited.</source>
        <translation>损坏的耦合 DP 组会被整体移出、作为一个整组重启，并在恢复服务后加回；一次只处理一个组，每小时最多两次，操作员正在操作该池时不会进行；若代理一直繁忙，会用其当前实例列表重启代理（其在途请求会失败）。每一步都记入审计日志。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Eject after:</source>
        <translation>连续异常后摘除(&amp;E)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>At &amp;most:</source>
        <translation>最多(&amp;M)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ejections &amp;per:</source>
        <translation>次摘除，时间窗口(&amp;P)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Alert &amp;webhook:</source>
        <translation>告警 Webhook(&amp;W)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>One tiny completion (4 tokens) through the proxy per interval, marked as the console&apos;s (user &quot;pdconsole-canary&quot;, header X-PD-Traffic): its success rate and latency are charted on Pools, and failures in a row are a problem.</source>
        <translation>每个间隔通过代理发送一个极小的补全请求（4 个 token），并标记为控制台的流量（user &quot;pdconsole-canary&quot;，请求头 X-PD-Traffic）：其成功率和延迟绘制在“资源池”页，连续失败会列为问题。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Canary &amp;every:</source>
        <translation>金丝雀间隔(&amp;E)：</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&lt;b&gt;Not an http:// or https:// URL:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;不是 http:// 或 https:// 地址：&lt;/b&gt;%1</translation>
    </message>
</context>
<context>
    <name>pd::ShortcutsDialog</name>
    <message>
        <location filename="../../widgets/shortcutsdialog.cpp" line="+18"/>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Every command is also in the command palette (%1).</source>
        <translation>所有命令也都可以在命令面板（%1）中找到。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>J / K, ↓ / ↑</source>
        <translation>J / K, ↓ / ↑</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Engines table and topology: next / previous engine</source>
        <translation>引擎表和拓扑：下一个 / 上一个引擎</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>← / →</source>
        <translation>← / →</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Topology: engine to the left / right</source>
        <translation>拓扑：左侧 / 右侧的引擎</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shift+arrows</source>
        <translation>Shift+方向键</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Topology: extend the selection</source>
        <translation>拓扑：扩展选择</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enter</source>
        <translation>Enter</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Open the highlighted engine (detail and charts)</source>
        <translation>打开高亮的引擎（详情和图表）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Space</source>
        <translation>Space</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Topology: add or remove the engine from the selection</source>
        <translation>拓扑：将引擎加入或移出选择</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ctrl+A</source>
        <translation>Ctrl+A</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Topology: select every engine</source>
        <translation>拓扑：选择全部引擎</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Esc</source>
        <translation>Esc</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Topology: clear the selection; palette and dialogs: close</source>
        <translation>拓扑：清除选择；命令面板和对话框：关闭</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>+ / − / 0</source>
        <translation>+ / − / 0</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Topology: zoom in / out / fit</source>
        <translation>拓扑：放大 / 缩小 / 适应窗口</translation>
    </message>
</context>
<context>
    <name>pd::Sparkline</name>
    <message>
        <location filename="../../widgets/triageviews/sparkline.cpp" line="+75"/>
        <source>no data</source>
        <translation>无数据</translation>
    </message>
</context>
<context>
    <name>pd::StateTracker</name>
    <message>
        <location filename="../../core/state/statetracker.cpp" line="+103"/>
        <source>listed in the proxy&apos;s start command</source>
        <translation>已列于代理启动命令中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not in the proxy&apos;s start command</source>
        <translation>不在代理启动命令中</translation>
    </message>
    <message>
        <location line="+85"/>
        <source>%1 %2 since %3</source>
        <translation>%1 自 %3 起 %2</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>DP group %1 is broken (%2): its collectives cannot complete, so this rank makes no progress</source>
        <translation>DP 组 %1 已损坏（%2）：其集合通信无法完成，因此该 rank 没有进展</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>own state %1: %2</source>
        <translation>自身状态 %1：%2</translation>
    </message>
    <message>
        <location line="+145"/>
        <source>it answers again after it was stopped</source>
        <translation>停止后又重新响应</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>process %1</source>
        <translation>进程 %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>its process runs again after it was stopped</source>
        <translation>停止后其进程又重新运行</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>proxy membership %1 → %2</source>
        <translation>代理成员状态 %1 → %2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>added to the proxy again</source>
        <translation>已重新加入代理</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>operator intent %1 → %2</source>
        <translation>操作员意图 %1 → %2</translation>
    </message>
    <message>
        <location line="+28"/>
        <location line="+39"/>
        <source>proxy</source>
        <translation>代理</translation>
    </message>
    <message>
        <location line="-38"/>
        <source>%1 (%2 lines)</source>
        <translation>%1（%2 行）</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>proxy %1:%2</source>
        <translation>代理 %1:%2</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>proxy unreachable</source>
        <translation>代理不可达</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>proxy reachable again</source>
        <translation>代理恢复可达</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>proxy counts %1/%2 → %3/%4 (prefill/decode)</source>
        <translation>代理实例数 %1/%2 → %3/%4（预填充/解码）</translation>
    </message>
</context>
<context>
    <name>pd::StatusSummary</name>
    <message>
        <location filename="../../widgets/statussummary.cpp" line="+18"/>
        <source>No cluster open — File ▸ Open Profile…</source>
        <translation>未打开集群 — 文件 ▸ 打开配置文件…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 · %2 nodes · %3 engines (%4 prefill, %5 decode) · proxy %6:%7 (%8) · launcher %9</source>
        <translation>%1 · %2 个节点 · %3 个引擎（预填充 %4，解码 %5）· 代理 %6:%7（%8）· 启动器 %9</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>refused: not a key or token name</source>
        <translation>已拒绝：不是密钥或令牌名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>set</source>
        <translation>已设置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · API key from $%1 (%2)</source>
        <translation> · API 密钥来自 $%1（%2）</translation>
    </message>
    <message numerus="yes">
        <location line="+12"/>
        <source>profile valid, %n warning(s)</source>
        <translation>
            <numerusform>配置文件有效，%n 个警告</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n error(s)</source>
        <translation>
            <numerusform>%n 个错误</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>, %n warning(s)</source>
        <translation>
            <numerusform>，%n 个警告</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <location line="+40"/>
        <source>proxy %1 unreachable</source>
        <translation>代理 %1 不可达</translation>
    </message>
    <message numerus="yes">
        <location line="-39"/>
        <source> · %n in flight</source>
        <translation>
            <numerusform> · %n 个在途请求</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>proxy %1: %2 prefill · %3 decode%4</source>
        <translation>代理 %1：预填充 %2 · 解码 %3%4</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>%1 %2/%3</source>
        <translation>%1 %2/%3</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>proxy %1</source>
        <translation>代理 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>prefill</source>
        <translation>prefill</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>decode</source>
        <translation>decode</translation>
    </message>
    <message>
        <location line="+0"/>
        <source> serving</source>
        <translation> 服务中</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>clients %1 % ok</source>
        <translation>客户端成功 %1 %</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>%n in flight</source>
        <translation>
            <numerusform>%n 个在途</numerusform>
        </translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Last /healthcheck at %1</source>
        <translation>上次 /healthcheck 时间：%1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 (at %2)</source>
        <translation>%1（时间：%2）</translation>
    </message>
</context>
<context>
    <name>pd::TimeSeriesChart</name>
    <message>
        <location filename="../../widgets/charts/timeserieschart.cpp" line="+78"/>
        <source>no data</source>
        <translation>无数据</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Save Chart as PNG…</source>
        <translation>将图表保存为 PNG…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Save chart</source>
        <translation>保存图表</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save failed</source>
        <translation>保存失败</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Could not write %1</source>
        <translation>无法写入 %1</translation>
    </message>
</context>
<context>
    <name>pd::TimelineView</name>
    <message>
        <location filename="../../widgets/triageviews/timelineview.cpp" line="+118"/>
        <source>No events in the filter.</source>
        <translation>没有符合筛选条件的事件。</translation>
    </message>
    <message>
        <location line="+130"/>
        <source>Filter events (node, engine, words)…</source>
        <translation>筛选事件（节点、引擎、关键词）…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>All kinds</source>
        <translation>所有类型</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>last %1 min</source>
        <translation>最近 %1 分钟</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>last %1 h</source>
        <translation>最近 %1 小时</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>1 event</source>
        <translation>1 个事件</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 events</source>
        <translation>%1 个事件</translation>
    </message>
    <message>
        <location line="+55"/>
        <location line="+5"/>
        <source>Export Events</source>
        <translation>导出事件</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
</context>
<context>
    <name>pd::TopologyPanel</name>
    <message>
        <location filename="../../widgets/topologyview/topologypanel.cpp" line="+45"/>
        <source>Filter (node, host, :port, dp 12, state…)</source>
        <translation>筛选（节点、主机、:端口、dp 12、状态…）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Any state</source>
        <translation>任意状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Problems (stalled, unhealthy, unreachable, group broken)</source>
        <translation>问题（停滞、不健康、不可达、组损坏）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Both pools</source>
        <translation>全部池</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Colour: state</source>
        <translation>着色：状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Colour: KV cache %</source>
        <translation>着色：KV 缓存 %</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Colour: running requests</source>
        <translation>着色：运行中请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Colour: generation tokens/s</source>
        <translation>着色：生成 tokens/s</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Layout: auto</source>
        <translation>布局：自动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Layout: node boxes</source>
        <translation>布局：节点框</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Layout: heatmap</source>
        <translation>布局：热力图</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Show the whole cluster (0)</source>
        <translation>显示整个集群（0）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Zoom out (-)</source>
        <translation>缩小（-）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Zoom in (+)</source>
        <translation>放大（+）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;small&gt;drag: select area · Shift/Ctrl: add · &lt;b&gt;right-click: actions&lt;/b&gt; (engine, selection or node) · right/middle/Alt-drag: pan · wheel: zoom · arrows, Enter: open&lt;/small&gt;</source>
        <translation>&lt;small&gt;拖动：框选 · Shift/Ctrl：追加选择 · &lt;b&gt;右键：操作&lt;/b&gt;（引擎、选中项或节点） · 右键/中键/Alt 拖动：平移 · 滚轮：缩放 · 方向键、Enter：打开&lt;/small&gt;</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>All nodes</source>
        <translation>所有节点</translation>
    </message>
    <message numerus="yes">
        <location line="+29"/>
        <source>%n engine(s)</source>
        <translation>
            <numerusform>%n 个引擎</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of %2 match</source>
        <translation>匹配 %1 / %2</translation>
    </message>
</context>
<context>
    <name>pd::TopologyView</name>
    <message>
        <location filename="../../widgets/topologyview/topologyview.cpp" line="+652"/>
        <source>&lt;b&gt;%1 · %2&lt;/b&gt;&lt;br&gt;%3 · DP rank %4 / %5 · TP %6</source>
        <translation>&lt;b&gt;%1 · %2&lt;/b&gt;&lt;br&gt;%3 · DP rank %4 / %5 · TP %6</translation>
    </message>
    <message numerus="yes">
        <location line="+11"/>
        <source>%n s ago</source>
        <translation>
            <numerusform>%n 秒前</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+0"/>
        <source>%n min ago</source>
        <translation>
            <numerusform>%n 分钟前</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source> since %1 (%2)</source>
        <translation>，自 %1 起（%2）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&lt;br&gt;last error: &lt;i&gt;%1&lt;/i&gt;</source>
        <translation>&lt;br&gt;最近错误：&lt;i&gt;%1&lt;/i&gt;</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&lt;b&gt;%1&lt;/b&gt; · %2&lt;br&gt;%3 · %4 · %5 NPUs · %6</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; · %2&lt;br&gt;%3 · %4 · %5 个 NPU · %6</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n engine(s)</source>
        <translation>
            <numerusform>%n 个引擎</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;br&gt;&lt;b&gt;✖ SSH down&lt;/b&gt;</source>
        <translation>&lt;br&gt;&lt;b&gt;✖ SSH 不可用&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;br&gt;&lt;b&gt;✖ NPU health check failed&lt;/b&gt;</source>
        <translation>&lt;br&gt;&lt;b&gt;✖ NPU 健康检查失败&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;br&gt;&lt;b&gt;✖ network check failed&lt;/b&gt;</source>
        <translation>&lt;br&gt;&lt;b&gt;✖ 网络检查失败&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The proxy&apos;s /healthcheck has not answered yet</source>
        <translation>代理的 /healthcheck 尚未响应</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Proxy unreachable: %1</source>
        <translation>代理不可达：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>/healthcheck at %1: %2 prefill, %3 decode instances (draining included, waiting excluded)</source>
        <translation>/healthcheck（%1）：预填充实例 %2 个，解码实例 %3 个（含排空中，不含等待中）</translation>
    </message>
    <message>
        <location filename="../../widgets/topologyview/topologyviewpaint.cpp" line="+58"/>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>running requests</source>
        <translation>运行中请求</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>generation tokens/s</source>
        <translation>生成 tokens/s</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>state</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+112"/>
        <source>Prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Decode</source>
        <translation>解码</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source> · %n engine(s) failing</source>
        <translation>
            <numerusform> · %n 个引擎故障</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · 1 node</source>
        <translation> · 1 个节点</translation>
    </message>
    <message>
        <location line="+0"/>
        <source> · %1 nodes</source>
        <translation> · %1 个节点</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · 1 engine</source>
        <translation> · 1 个引擎</translation>
    </message>
    <message>
        <location line="+0"/>
        <source> · %1 engines</source>
        <translation> · %1 个引擎</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> · %1 serving</source>
        <translation> · 服务中 %1</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Proxy %1</source>
        <translation>代理 %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>not polled yet</source>
        <translation>尚未轮询</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>in proxy: %1 prefill · %2 decode</source>
        <translation>代理中：预填充 %1 · 解码 %2</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source> · %n request(s) in flight</source>
        <translation>
            <numerusform> · %n 个在途请求</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>✖ unreachable: %1</source>
        <translation>✖ 不可达：%1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>profile: %1 prefill · %2 decode instances</source>
        <translation>配置文件：预填充实例 %1 个 · 解码实例 %2 个</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>KV cache P → D</source>
        <translation>KV 缓存 P → D</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>KV cache P → D
%1</source>
        <translation>KV 缓存 P → D
%1</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>DP %1 · TP %2 · 1 engine</source>
        <translation>DP %1 · TP %2 · 1 个引擎</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>DP %1–%2 · TP %3 · %4 engines</source>
        <translation>DP %1–%2 · TP %3 · %4 个引擎</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no engines</source>
        <translation>无引擎</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>SSH</source>
        <translation>SSH</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>NPU</source>
        <translation>NPU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>NET</source>
        <translation>网络</translation>
    </message>
    <message>
        <location line="+86"/>
        <source>DP %1</source>
        <translation>DP %1</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Colour: %1</source>
        <translation>着色：%1</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>no data · marks show the state</source>
        <translation>无数据 · 标记表示状态</translation>
    </message>
    <message>
        <location filename="../../widgets/topologyview/topologygroups.cpp" line="+96"/>
        <source>DP group %1 · %2 ranks on %3 nodes</source>
        <translation>DP 组 %1 · %2 个 rank，分布在 %3 个节点</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>DP group %1</source>
        <translation>DP 组 %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source> · %1 dead</source>
        <translation> · %1 已退出</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> · %1 and %2 more dead</source>
        <translation> · %1 及另外 %2 个已退出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GROUP BROKEN · %1%2 · restart the group</source>
        <translation>组已损坏 · %1%2 · 请重启该组</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GROUP BROKEN · %1%2</source>
        <translation>组已损坏 · %1%2</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>GROUP BROKEN · %1</source>
        <translation>组已损坏 · %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GROUP BROKEN</source>
        <translation>组已损坏</translation>
    </message>
</context>
<context>
    <name>pd::TrackedEngineInfo</name>
    <message>
        <location filename="../../core/topology/trackedengineinfo.cpp" line="+41"/>
        <source> (at %1)</source>
        <translation>（截至 %1）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>generation</source>
        <translation>生成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>prompt</source>
        <translation>提示词</translation>
    </message>
</context>
<context>
    <name>pd::Triage</name>
    <message>
        <location filename="../../core/triage/findproblems.cpp" line="+63"/>
        <source>Engine stalled</source>
        <translation>引擎停滞</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Engine unhealthy</source>
        <translation>引擎不健康</translation>
    </message>
    <message>
        <location line="+2"/>
        <location filename="../../widgets/triageviews/problemspanel.cpp" line="-88"/>
        <source>Engine not running, yet in the proxy</source>
        <translation>引擎未运行，但仍在代理中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Engine unreachable</source>
        <translation>引擎不可达</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Proxy routes to a stopped engine</source>
        <translation>代理仍向已停止的引擎转发</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Proxy routes to a dead engine</source>
        <translation>代理仍向已失效的引擎转发</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Proxy dropped the engine&apos;s add</source>
        <translation>代理丢弃了引擎的加入请求</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Engine metrics stale</source>
        <translation>引擎指标过期</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Restart the group: stop every rank (the survivors may need a force stop) and start them all together. Removing the dead rank from the proxy does not help: the others wait for it in every forward pass.</source>
        <translation>重启该组：停止每个 rank（存活的 rank 可能需要强制停止），然后一起启动。把已退出的 rank 从代理中移除没有用：其他 rank 在每次前向计算中都在等待它。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Every request needs this pool: bring one of its engines back (see the engine problems below) or add a healthy engine to the proxy.</source>
        <translation>所有请求都依赖此池：恢复其中一个引擎（见下方的引擎问题），或向代理添加一个健康的引擎。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Check that the proxy process runs on its host and read its log; clients get no answers meanwhile.</source>
        <translation>检查代理进程是否在其主机上运行，并查看其日志；在此期间客户端收不到任何响应。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Remove it from the proxy now (the proxy keeps sending it requests that fail), then read its log and restart it; pdctl watch --auto-eject does the removal unattended.</source>
        <translation>立即将其从代理移除（代理会持续向它发送必然失败的请求），然后查看其日志并重启；pdctl watch --auto-eject 可无人值守地完成移除。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Read the engine&apos;s log for a hung collective (HCCL) or NPU error; remove it from the proxy, then restart it.</source>
        <translation>在引擎日志中查找挂起的集合通信（HCCL）或 NPU 错误；将其移出代理，然后重启。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Read the engine&apos;s log for the EngineCore error; remove it from the proxy and restart it.</source>
        <translation>在引擎日志中查找 EngineCore 错误；将其移出代理并重启。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Check that the process runs and the node is up (SSH); if it crashed, read its log and restart it, or remove it from the proxy.</source>
        <translation>检查进程是否在运行、节点是否在线（SSH）；若已崩溃，查看其日志并重启，或将其移出代理。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Check that the node is up and sshd answers; check the key offered by ssh-agent.</source>
        <translation>检查节点是否在线、sshd 是否响应；检查 ssh-agent 提供的密钥。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Clients get these failures too. Fix the engine problems listed above (a dead engine the proxy still routes to fails its share of requests); with none listed, read the proxy&apos;s log.</source>
        <translation>客户端也会遇到这些失败。请先修复上面列出的引擎问题（代理仍在路由的失效引擎会让它分到的请求失败）；若没有列出任何问题，请查看代理日志。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open Node checks for the device and the raw output; a link or NPU that fails there breaks the KV transfers and collectives of every engine on the node.</source>
        <translation>打开“节点检查”查看该设备及原始输出；在那里失败的链路或 NPU 会破坏该节点上每个引擎的 KV 传输和集合通信。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open the engine&apos;s log (Show log): the diagnosis and the fix of the signature are beside the line.</source>
        <translation>打开引擎日志（“显示日志”）：该特征的诊断和修复方法显示在对应行旁。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Check the engine answers /v1/models, then add it to the proxy again.</source>
        <translation>确认引擎能响应 /v1/models，然后重新将其加入代理。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add it to the proxy, or stop it to free its NPUs.</source>
        <translation>将其加入代理，或停止它以释放其 NPU。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Polls are failing; watch whether they recover before acting.</source>
        <translation>轮询持续失败；先观察能否恢复，再采取行动。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Wait for an idle moment (the proxy ends a drain only when no request is in flight anywhere); or bring them back with Scale or Add to proxy, which restarts the proxy with its current lists after a bounded wait (the requests in flight then fail); or stop them to free their NPUs.</source>
        <translation>等待空闲时刻（只有在任何地方都没有请求在途时，代理才会结束排空）；或者用“扩缩容”或“添加到代理”将它们带回，这会在有限的等待之后以当前列表重启代理（届时在途的请求会失败）；或者停止它们以释放其 NPU。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Read the operation&apos;s steps in Operations.</source>
        <translation>在“操作”页中查看该操作的各个步骤。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>HTTP 200 with an empty body (a decoder failed behind the proxy)</source>
        <translation>HTTP 200 但响应体为空（代理后面的 decoder 失败）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a stream cut short, without [DONE] (a decoder failed mid-answer)</source>
        <translation>流被截断，没有 [DONE]（decoder 在应答中途失败）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no complete answer in time (a hung or overloaded engine)</source>
        <translation>未在时限内得到完整应答（引擎挂起或过载）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>an HTTP error</source>
        <translation>HTTP 错误</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>an error in the answer</source>
        <translation>应答中含有错误</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no connection to the proxy</source>
        <translation>无法连接代理</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>an answer that is not the OpenAI format</source>
        <translation>应答不是 OpenAI 格式</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>an answer without a single token</source>
        <translation>应答中没有任何 token</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>the KV connector&apos;s ZMQ side channel</source>
        <translation>KV 连接器的 ZMQ 旁路通道</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>restart DP group %1: its %2 ranks stop and start together (Problems ▸ Restart group); a rank alone cannot rejoin its group</source>
        <translation>重启 DP 组 %1：它的 %2 个 rank 一起停止并一起启动（问题 ▸ 重启组）；单个 rank 无法重新加入其组</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>restart DP groups %1, each as a whole (Problems ▸ Restart group); a rank alone cannot rejoin its group</source>
        <translation>重启 DP 组 %1，每个组整体重启（问题 ▸ 重启组）；单个 rank 无法重新加入其组</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>open its log (Show log) for the signature&apos;s fix</source>
        <translation>打开其日志（显示日志）查看该特征的修复方法</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>open its log (Show log) for the signature&apos;s fix; if that is a restart, %1</source>
        <translation>打开其日志（显示日志）查看该特征的修复方法；如果修复方法是重启，%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>remove it from the proxy and restart it</source>
        <translation>将其从代理中移除并重启</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>restart it</source>
        <translation>重启它</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>KV transfer to the decoder failed (%1): check the pair&apos;s RDMA link with the node checks on both nodes, then %2.</source>
        <translation>到 decode 引擎的 KV 传输失败（%1）：用两个节点上的节点检查检查这对引擎之间的 RDMA 链路，然后%2。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>KV transfer from the prefiller failed (%1): check the pair&apos;s RDMA link with the node checks on both nodes, then %2.</source>
        <translation>来自 prefill 引擎的 KV 传输失败（%1）：用两个节点上的节点检查检查这对引擎之间的 RDMA 链路，然后%2。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The KV cache is pinned full and frees nothing (blocks held for KV transfers that never completed): look at the peer engine and its log, then %1.</source>
        <translation>KV 缓存被占满且无法释放（块被从未完成的 KV 传输占用）：查看对端引擎及其日志，然后%1。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>A collective hangs (HCCL): a rank inside the engine died or is stuck, or the NPU network drops packets; check the links with the node checks, then %1.</source>
        <translation>集合通信挂起（HCCL）：引擎内部的某个 rank 已死或卡住，或 NPU 网络丢包；用节点检查检查链路，然后%1。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A collective hangs (HCCL): a rank of the group died or is stuck; find the first error in its ranks&apos; logs, then %1.</source>
        <translation>集合通信挂起（HCCL）：组内某个 rank 已死或卡住；在各 rank 的日志中找到最早的错误，然后%1。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Remove it from the proxy now (the proxy keeps sending it requests that fail; routing around one rank is harmless), then read its log and %1.</source>
        <translation>立即将其从代理中移除（代理会继续向它发送请求，而这些请求会失败；绕开一个 rank 路由是无害的），然后阅读其日志并%1。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Read the engine&apos;s log for a hung collective (HCCL) or NPU error, then %1.</source>
        <translation>在引擎日志中查找挂起的集合通信（HCCL）或 NPU 错误，然后%1。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Read the engine&apos;s log for the EngineCore error, then %1.</source>
        <translation>在引擎日志中查找 EngineCore 错误，然后%1。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Check that the process runs and the node is up (SSH); if it crashed, read its log and %1.</source>
        <translation>检查进程是否在运行、节点是否在线（SSH）；如果它崩溃了，阅读其日志并%1。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Open the engine&apos;s log (Show log): the diagnosis and the fix of the signature are beside the line; if the fix is a restart, %1.</source>
        <translation>打开引擎的日志（显示日志）：该特征的诊断和修复方法就在该行旁边；如果修复方法是重启，%1。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Remove it from the proxy now (the proxy keeps sending it requests that fail). %1</source>
        <translation>立即将其从代理中移除（代理会继续向它发送请求，而这些请求会失败）。%1</translation>
    </message>
    <message>
        <location line="+110"/>
        <source>Proxy unreachable</source>
        <translation>代理不可达</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+13"/>
        <source>proxy %1</source>
        <translation>代理 %1</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>/healthcheck does not answer</source>
        <translation>/healthcheck 无响应</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Client requests failing</source>
        <translation>客户端请求失败</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 of the last %2 canary requests failed; the last: %3</source>
        <translation>最近 %2 个金丝雀请求中有 %1 个失败；最近一次：%3</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>%1 pool empty</source>
        <translation>%1池为空</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+260"/>
        <source>%1 pool</source>
        <translation>%1池</translation>
    </message>
    <message>
        <location line="-259"/>
        <source>none of its %1 engines serves</source>
        <translation>其 %1 个引擎均不在服务中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the proxy counts no %1 instance</source>
        <translation>代理统计的%1实例数为 0</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 of %2 %3 engines serving</source>
        <translation>%3引擎共 %2 个，其中 %1 个服务中</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Node unreachable over SSH</source>
        <translation>节点 SSH 不可达</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+18"/>
        <source>node %1 (%2)</source>
        <translation>节点 %1（%2）</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Node checks failed</source>
        <translation>节点检查失败</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Node checks warn</source>
        <translation>节点检查告警</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 (and %2 more)</source>
        <translation>%1（另有 %2 项）</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>DP group broken: 1 rank dead</source>
        <translation>DP 组已损坏：1 个 rank 已退出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>DP group broken: %1 ranks dead</source>
        <translation>DP 组已损坏：%1 个 rank 已退出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>group %1 (%2 ranks on %3)</source>
        <translation>组 %1（%2 个 rank，位于 %3）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 %2 since %3</source>
        <translation>%1 自 %3 起 %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>dead rank %1: %2</source>
        <translation>已退出的 rank %1：%2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1; the other rank cannot make progress (it still answers /health 200 but produces no tokens)</source>
        <translation>%1；另一个 rank 无法推进（它仍对 /health 返回 200，但不产生 token）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1; the other %2 ranks cannot make progress (they still answer /health 200 but produce no tokens)</source>
        <translation>%1；其余 %2 个 rank 无法推进（它们仍对 /health 返回 200，但不产生 token）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>coupled DP group: every rank syncs in every forward pass; %1 of %2 ranks dead, %3 live and held</source>
        <translation>耦合 DP 组：每个 rank 在每次前向计算中同步；%2 个 rank 中 %1 个已退出，%3 个存活但被卡住</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>no other %1 engine serves: every %1 request fails</source>
        <translation>没有其他 %1 引擎在服务：每个 %1 请求都会失败</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>%1 (all %2 engines of the node)</source>
        <translation>%1（该节点全部 %2 个引擎）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 (%2 of the node&apos;s %3 engines)</source>
        <translation>%1（该节点 %3 个引擎中的 %2 个）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>node %1</source>
        <translation>节点 %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>first engine %1: %2</source>
        <translation>首个引擎 %1：%2</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>the proxy lists it as an active %1 instance</source>
        <translation>代理将其列为活动的 %1 实例</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Log: %1</source>
        <translation>日志：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>log line: %1</source>
        <translation>日志行：%1</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Healthy engines out of traffic</source>
        <translation>健康引擎不接收流量</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%1: %n healthy rank(s) out of traffic since %2 (draining in a busy proxy)</source>
        <translation>
            <numerusform>%1：自 %2 起有 %n 个健康的 rank 不接收流量（在繁忙的代理中排空）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%1: %n healthy rank(s) out of traffic since %2 (draining in a busy proxy; %3 taken out on purpose and left running)</source>
        <translation>
            <numerusform>%1：自 %2 起有 %n 个健康的 rank 不接收流量（在繁忙的代理中排空；其中 %3 个是有意移出并保持运行的）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1: taken out on purpose, draining since %2</source>
        <translation>%1：有意移出，自 %2 起排空中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: draining since %2</source>
        <translation>%1：自 %2 起排空中</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>and %n more</source>
        <translation>
            <numerusform>以及另外 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <location line="+47"/>
        <source>Operation cut short: %1 %2</source>
        <translation>操作被中断：%1 %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Operation failed: %1 %2</source>
        <translation>操作失败：%1 %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Operations tab: Finish or Undo it (pdctl repair --profile FILE)</source>
        <translation>在“操作”页完成或撤销它（pdctl repair --profile FILE）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1 %2 was cut short at %3</source>
        <translation>%1 %2 于 %3 被中断</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 %2 failed at %3</source>
        <translation>%1 %2 于 %3 失败</translation>
    </message>
    <message>
        <location filename="../../core/triage/notificationpolicy.cpp" line="+50"/>
        <source>%1 new problems</source>
        <translation>%1 个新问题</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>and %1 more</source>
        <translation>另有 %1 个</translation>
    </message>
</context>
<context>
    <name>pd::ValidationIssueModel</name>
    <message>
        <location filename="../../core/models/validationissuemodel.cpp" line="+54"/>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Severity</source>
        <translation>级别</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
</context>
<context>
    <name>pd::WarmUp</name>
    <message>
        <location filename="../../core/ops/completionstreamreader.cpp" line="+90"/>
        <location line="+20"/>
        <source>line %1: longer than %2 bytes</source>
        <translation>第 %1 行：长度超过 %2 字节</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>line %1: not an event-stream field: %2</source>
        <translation>第 %1 行：不是 event-stream 字段：%2</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>line %1: data is not a JSON object: %2</source>
        <translation>第 %1 行：data 不是 JSON 对象：%2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>line %1: the stream carries an error: %2</source>
        <translation>第 %1 行：流中包含错误：%2</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>line %1: an event with neither choices nor usage: %2</source>
        <translation>第 %1 行：事件既无 choices 也无 usage：%2</translation>
    </message>
    <message>
        <location line="+44"/>
        <location line="+25"/>
        <source>HTTP 200 with an empty body (the proxy&apos;s answer when a decoder fails)</source>
        <translation>HTTP 200 但响应体为空（decoder 失败时代理的应答）</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>the stream ended without data: [DONE] after %1 content chunk(s), %2 line(s)%3: truncated</source>
        <translation>流结束时没有 data: [DONE]（已收到 %1 个内容块、%2 行%3）：响应被截断</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>, inside line %1</source>
        <translation>，断在第 %1 行中间</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>data: [DONE] without a single generated token</source>
        <translation>收到 data: [DONE]，但未生成任何 token</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>the body is not a JSON object (%1 bytes): %2</source>
        <translation>响应体不是 JSON 对象（%1 字节）：%2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>HTTP 200 carrying an error: %1</source>
        <translation>HTTP 200 但包含错误：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the body has no choices: %1</source>
        <translation>响应体没有 choices：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>a complete answer without a single generated token</source>
        <translation>响应完整，但未生成任何 token</translation>
    </message>
    <message>
        <location filename="../../core/ops/warmuprun.cpp" line="+284"/>
        <source>cancelled after %1 ms</source>
        <translation>%1 ms 后已取消</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>no answer within %1 ms</source>
        <translation>%1 ms 内无响应</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>HTTP %1 but the body did not end within %2 ms</source>
        <translation>HTTP %1，但响应体在 %2 ms 内未结束</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>HTTP 200 but no token within %1 ms</source>
        <translation>HTTP 200，但 %1 ms 内没有 token</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>stream stalled: %1 content chunk(s), first after %2 ms, then nothing until %3 ms</source>
        <translation>流停滞：收到 %1 个内容块，首块在 %2 ms 到达，此后直到 %3 ms 再无数据</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the proxy closed the connection before answering</source>
        <translation>代理在响应前关闭了连接</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the answer is larger than %1 bytes</source>
        <translation>响应大于 %1 字节</translation>
    </message>
    <message>
        <location line="+10"/>
        <source> (connection: %1)</source>
        <translation>（连接：%1）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the connection broke: %1</source>
        <translation>连接中断：%1</translation>
    </message>
</context>
<context>
    <name>pd::WarmUpChart</name>
    <message>
        <location filename="../../widgets/warmup/warmupchart.cpp" line="+56"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>time to first token</source>
        <translation>首 token 时延</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>end to end</source>
        <translation>端到端</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed (×)</source>
        <translation>失败（×）</translation>
    </message>
</context>
<context>
    <name>pd::WarmUpDialog</name>
    <message>
        <location filename="../../widgets/warmup/warmupdialog.cpp" line="+63"/>
        <source>OK</source>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>HTTP error</source>
        <translation>HTTP 错误</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Empty 200 (decoder failed)</source>
        <translation>空 200 响应（解码引擎失败）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stream without [DONE]</source>
        <translation>流式响应缺少 [DONE]</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Malformed answer</source>
        <translation>响应格式错误</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Error in the answer</source>
        <translation>响应中含错误</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No tokens</source>
        <translation>无 token</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Connection failed</source>
        <translation>连接失败</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Stream (measures TTFT and TPOT)</source>
        <translation>流式（测量 TTFT 和 TPOT）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Cancel run</source>
        <translation>取消运行(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Export CSV...</source>
        <translation>导出 CSV(&amp;E)...</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Example</source>
        <translation>示例</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Latency (ok requests)</source>
        <translation>时延（成功请求）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>N</source>
        <translation>样本数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>p50 ms</source>
        <translation>p50 ms</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>p90 ms</source>
        <translation>p90 ms</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>p99 ms</source>
        <translation>p99 ms</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>max ms</source>
        <translation>最大 ms</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Warm-up and smoke test: %1</source>
        <translation>预热与冒烟测试：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>from the proxy&apos;s /v1/models</source>
        <translation>取自代理的 /v1/models</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>from the proxy&apos;s /v1/models, else %1</source>
        <translation>取自代理的 /v1/models，否则为 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Requests to send. A few dozen warm the prefill engines before a benchmark.</source>
        <translation>要发送的请求数。压测前发送几十个请求即可预热预填充引擎。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>At most this many requests in flight</source>
        <translation>同时在途请求数的上限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prompt length in tokens (about four characters each); every prompt is different</source>
        <translation>提示词长度，单位为 token（每个约四个字符）；每条提示词都不同</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens to generate per request (ignore_eos: exactly this many)</source>
        <translation>每个请求生成的 token 数（ignore_eos：恰好生成这么多）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A request without a complete answer by then counts as a timeout</source>
        <translation>到时仍未收到完整响应的请求记为超时</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Requests:</source>
        <translation>请求数：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Concurrency:</source>
        <translation>并发数：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prompt tokens:</source>
        <translation>提示词 token 数：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Max tokens:</source>
        <translation>最大 token 数：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Timeout per request:</source>
        <translation>单请求超时：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Sends small completions through the proxy and checks every answer: an empty 200 or a stream without [DONE] is the proxy hiding a decoder failure.</source>
        <translation>通过代理发送小规模补全请求并检查每个响应：空的 200 响应或缺少 [DONE] 的流，意味着代理掩盖了解码引擎的失败。</translation>
    </message>
    <message>
        <location line="+98"/>
        <source>Asking the proxy for its model...</source>
        <translation>正在向代理查询模型...</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Sending...</source>
        <translation>正在发送...</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Sending to model %1 (%2)...</source>
        <translation>正在发送到模型 %1（%2）...</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Not run: %1</source>
        <translation>未运行：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 of %2 requests succeeded (%3 %) in %4 s; model %5.</source>
        <translation>%2 个请求中 %1 个成功（%3 %），用时 %4 秒；模型 %5。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Cancelled after %1 request(s).</source>
        <translation>发送 %1 个请求后已取消。</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n request(s) failed: see the table.</source>
        <translation>
            <numerusform>%n 个请求失败：详见表格。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Not audited: %1</source>
        <translation>未记入审计日志：%1</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Time to first token</source>
        <translation>首 token 时延</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Time per output token</source>
        <translation>每输出 token 时延</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>End to end</source>
        <translation>端到端</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>No result to export yet.</source>
        <translation>尚无可导出的结果。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Export warm-up results</source>
        <translation>导出预热结果</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Exported to %1.</source>
        <translation>已导出到 %1。</translation>
    </message>
</context>
<context>
    <name>pd::Watchdog</name>
    <message>
        <location filename="../../core/watch/watchdog.cpp" line="+97"/>
        <source>the proxy still drains it: it removes it only when no request is in flight and ignores an add until then. Ways out: wait for a quiet moment, or bring it back with Scale or Add to proxy (the proxy is restarted with its current lists; the requests in flight then fail)</source>
        <translation>代理仍在排空它：只有在没有任何请求在途时才会将其移除，在此之前会忽略对它的添加。解决办法：等待空闲时刻，或用“扩缩容”或“加入代理”将其加回（会用代理当前的实例列表重启代理；届时在途的请求会失败）</translation>
    </message>
    <message>
        <location line="+100"/>
        <source>auto-eject is off: the proxy has no /instances API (v0.9.1-dev); it can only be changed by a restart</source>
        <translation>自动摘除不可用：该代理没有 /instances 接口（v0.9.1-dev），只能通过重启变更</translation>
    </message>
</context>
</TS>
