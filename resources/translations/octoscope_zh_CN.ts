<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Ablation</name>
    <message>
        <source>zero</source>
        <translation>置零</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>均值</translation>
    </message>
</context>
<context>
    <name>EngineLabels</name>
    <message>
        <source>reached the token limit</source>
        <translation>达到词元上限</translation>
    </message>
    <message>
        <source>end of generation</source>
        <translation>生成结束</translation>
    </message>
    <message>
        <source>stop string</source>
        <translation>停止字符串</translation>
    </message>
    <message>
        <source>context full</source>
        <translation>上下文已满</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>measured, nothing generated</source>
        <translation>已测量，未生成</translation>
    </message>
</context>
<context>
    <name>HeadGroup</name>
    <message>
        <source>group %1</source>
        <translation>组 %1</translation>
    </message>
</context>
<context>
    <name>HeadMapSource</name>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>GGUF</source>
        <translation>GGUF</translation>
    </message>
    <message>
        <source>calibrated</source>
        <translation>已校准</translation>
    </message>
</context>
<context>
    <name>Metric</name>
    <message>
        <source>norm share</source>
        <translation>范数占比</translation>
    </message>
    <message>
        <source>relative to the prompt</source>
        <translation>相对提示词</translation>
    </message>
    <message>
        <source>direct logit attribution</source>
        <translation>直接 logit 归因</translation>
    </message>
    <message>
        <source>router gates</source>
        <translation>路由器门控</translation>
    </message>
    <message>
        <source>expert routing</source>
        <translation>专家路由</translation>
    </message>
</context>
<context>
    <name>Precision</name>
    <message>
        <source>Reference (as llama.cpp)</source>
        <translation>参考（与 llama.cpp 一致）</translation>
    </message>
    <message>
        <source>Exact (float activations)</source>
        <translation>精确（浮点激活值）</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>prompt edited</source>
        <translation>提示词已编辑</translation>
    </message>
    <message>
        <source>%1 disabled in B</source>
        <translation>B 中关闭了 %1</translation>
    </message>
    <message>
        <source>%1 enabled in B</source>
        <translation>B 中开启了 %1</translation>
    </message>
    <message>
        <source>ablation %1 → %2</source>
        <translation>消融 %1 → %2</translation>
    </message>
    <message>
        <source>temperature %1 → %2</source>
        <translation>温度 %1 → %2</translation>
    </message>
    <message>
        <source>seed %1 → %2</source>
        <translation>随机种子 %1 → %2</translation>
    </message>
    <message>
        <source>top-p/top-k changed</source>
        <translation>top-p/top-k 已更改</translation>
    </message>
    <message>
        <source>max tokens %1 → %2</source>
        <translation>最大词元数 %1 → %2</translation>
    </message>
    <message>
        <source>nothing (same settings twice)</source>
        <translation>无（两次设置相同）</translation>
    </message>
    <message>
        <source>(end)</source>
        <translation>（结束）</translation>
    </message>
    <message>
        <source>[end of text]</source>
        <translation>[文本结束]</translation>
    </message>
    <message>
        <source>norm_share: each subsystem&apos;s mean head contribution norm ‖W_h z_h‖, normalised to sum 1</source>
        <translation>norm_share：各子系统注意力头贡献范数 ‖W_h z_h‖ 的均值，归一化为总和 1</translation>
    </message>
    <message>
        <source>relative: each head&apos;s norm divided by its mean over the prompt (without BOS), grouped and normalised — which subsystems work harder than usual here</source>
        <translation>relative：每个注意力头的范数除以其在提示词上（不含 BOS）的均值，再按子系统分组并归一化——显示哪些子系统在此处比平时更活跃</translation>
    </message>
    <message>
        <source>dla: direct logit attribution — each subsystem&apos;s share of the heads&apos; direct push toward the chosen token (needs DLA on)</source>
        <translation>dla：直接 logit 归因——各子系统在注意力头对所选词元的直接推动中所占份额（需开启 DLA）</translation>
    </message>
    <message>
        <source>gates: the model&apos;s own router gates per head group (models with a router, like octet)</source>
        <translation>gates：模型自身路由器对每个注意力头组的门控值（仅限带路由器的模型，如 octet）</translation>
    </message>
    <message>
        <source>a context of %1 tokens</source>
        <translation>%1 个词元的上下文</translation>
    </message>
    <message>
        <source>note on token %1</source>
        <translation>词元 %1 的备注</translation>
    </message>
    <message>
        <source>none detected</source>
        <translation>未检测到</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>model default</source>
        <translation>模型默认</translation>
    </message>
    <message>
        <source>precision %1 → %2</source>
        <translation>精度 %1 → %2</translation>
    </message>
    <message>
        <source>shared</source>
        <translation>共享</translation>
    </message>
    <message>
        <source>experts: each subsystem&apos;s share of the routing weight of the experts a calibrated expert map assigns to it (mixtures of experts after Model → Calibrate Experts or octoscope-cli calibrate --experts)</source>
        <translation>experts：校准的专家映射分配给各子系统的专家所得路由权重的占比（混合专家模型，需先“模型 → 校准专家”或 octoscope-cli calibrate --experts）</translation>
    </message>
    <message>
        <source>output constraint off in B</source>
        <translation>B 关闭输出约束</translation>
    </message>
    <message>
        <source>output constrained in B</source>
        <translation>B 的输出受约束</translation>
    </message>
</context>
<context>
    <name>Subsystem</name>
    <message>
        <source>Entity recognition &amp; linking</source>
        <translation>实体识别与链接</translation>
    </message>
    <message>
        <source>Relation extraction</source>
        <translation>关系抽取</translation>
    </message>
    <message>
        <source>Numerical reasoning</source>
        <translation>数值推理</translation>
    </message>
    <message>
        <source>Logical structure parsing</source>
        <translation>逻辑结构解析</translation>
    </message>
    <message>
        <source>Code semantics</source>
        <translation>代码语义理解</translation>
    </message>
    <message>
        <source>Style transfer &amp; polishing</source>
        <translation>风格迁移与润色</translation>
    </message>
    <message>
        <source>Format generation &amp; validation</source>
        <translation>格式生成与校验</translation>
    </message>
    <message>
        <source>Safety &amp; compliance filtering</source>
        <translation>安全与合规过滤</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Octoscope workbench</source>
        <translation>Octoscope 工作台</translation>
    </message>
    <message>
        <source>GGUF model (default: built-in octet)</source>
        <translation>GGUF 模型（默认：内置 octet）</translation>
    </message>
    <message>
        <source>Prompt to run at start</source>
        <translation>启动时运行的提示词</translation>
    </message>
    <message>
        <source>Tokens to generate</source>
        <translation>要生成的词元数</translation>
    </message>
    <message>
        <source>With --prompt: do not stop at end-of-generation tokens</source>
        <translation>配合 --prompt：遇到生成结束词元时不停止</translation>
    </message>
    <message>
        <source>User interface language for this start: en or zh_CN</source>
        <translation>本次启动的界面语言：en 或 zh_CN</translation>
    </message>
    <message>
        <source>No model</source>
        <translation>没有模型</translation>
    </message>
    <message>
        <source>Run --prompt N times, print the memory growth, exit</source>
        <translation>运行 --prompt 提示词 N 次，打印内存增长后退出</translation>
    </message>
    <message>
        <source>Bring this panel to the front (e.g. experts, attention, kv)</source>
        <translation>将此面板置于最前（如 experts、attention、kv）</translation>
    </message>
    <message>
        <source>Window size for this start, e.g. 1366x768</source>
        <translation>本次启动的窗口大小，如 1366x768</translation>
    </message>
    <message>
        <source>Preset layout for this start: inspect, compare or teach</source>
        <translation>本次启动的预设布局：inspect、compare 或 teach</translation>
    </message>
    <message>
        <source>Conversation to open and run at start (OpenAI messages, JSON)</source>
        <translation>启动时打开并运行的对话（OpenAI 消息格式，JSON）</translation>
    </message>
    <message>
        <source>Run --prompt or --conversation, save the window as PNG, exit</source>
        <translation>运行 --prompt 或 --conversation，将窗口保存为 PNG 后退出</translation>
    </message>
</context>
<context>
    <name>octo::ui::AboutDialog</name>
    <message>
        <source>About Octoscope</source>
        <translation>关于 Octoscope</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Octoscope&lt;/b&gt; — a workbench for debugging prompts and routes in language models: which of eight head groups (rte-a … rte-h) contributes to each token, measured inside the forward pass of the model it really runs.&lt;/p&gt;&lt;p&gt;The built-in model &lt;b&gt;octet&lt;/b&gt; was trained by this project so that head k of each of its 16 layers serves subsystem k and a learned router gates the groups. Its specialisation is trained in on purpose: it &lt;i&gt;demonstrates&lt;/i&gt; the idea of eight subsystems sharing one backbone, and is no evidence about how GPT-4 or any other model works inside.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Octoscope&lt;/b&gt;——用于调试语言模型提示词与路由的工作台：八个注意力头组（rte-a … rte-h）中哪一组对每个词元有贡献，都在实际运行的模型的前向传播中测量得出。&lt;/p&gt;&lt;p&gt;内置模型 &lt;b&gt;octet&lt;/b&gt; 由本项目训练，使其 16 层中每层的第 k 个注意力头服务于子系统 k，并由学习得到的路由器对各组进行门控。它的专门化是有意训练出来的：它&lt;i&gt;演示&lt;/i&gt;了八个子系统共享同一主干的想法，并不能证明 GPT-4 或任何其他模型的内部工作方式。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>none loaded</source>
        <translation>未加载</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>(not set)</source>
        <translation>（未设置）</translation>
    </message>
    <message>
        <source>Qt</source>
        <translation>Qt</translation>
    </message>
    <message>
        <source>%1 at run time, built with %2</source>
        <translation>运行时 %1，构建时 %2</translation>
    </message>
    <message>
        <source>spdlog</source>
        <translation>spdlog</translation>
    </message>
    <message>
        <source>Compiler</source>
        <translation>编译器</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>User data</source>
        <translation>用户数据</translation>
    </message>
    <message>
        <source>Log file</source>
        <translation>日志文件</translation>
    </message>
    <message>
        <source>Autosave</source>
        <translation>自动保存</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the versions and paths (for a bug report)</source>
        <translation>复制版本与路径（用于错误报告）</translation>
    </message>
    <message>
        <source>Model features</source>
        <translation>模型特性</translation>
    </message>
</context>
<context>
    <name>octo::ui::AdvisorController</name>
    <message>
        <source>prompt rewritten: %1</source>
        <translation>提示词已改写：%1</translation>
    </message>
    <message>
        <source>Apply &amp; compare: A or B did not finish, so there is no verdict.</source>
        <translation>应用并对比：A 或 B 未运行完成，因此没有结论。</translation>
    </message>
    <message>
        <source>The last run was cancelled: its partial output is not checked.</source>
        <translation>上次运行已取消：其部分输出不做检查。</translation>
    </message>
    <message>
        <source>The last run failed: there is no output to check.</source>
        <translation>上次运行失败：没有可检查的输出。</translation>
    </message>
    <message>
        <source>%1 — in the article&apos;s terms %2; this model&apos;s heads carry no such meaning until calibrated</source>
        <translation>%1 — 按文章的说法是 %2；在校准之前，此模型的注意力头不具有这种含义</translation>
    </message>
    <message>
        <source>A: the rewritten prompt, free; B: the prompt as it was, constrained to the fields&apos; schema</source>
        <translation>A：改写后的提示词，不受约束；B：原提示词，输出受其字段的 schema 约束</translation>
    </message>
    <message>
        <source>the model file</source>
        <translation>模型文件</translation>
    </message>
    <message>
        <source>the model file; %1</source>
        <translation>模型文件；%1</translation>
    </message>
</context>
<context>
    <name>octo::ui::AdvisorPanel</name>
    <message>
        <source>Advisor: no rules loaded</source>
        <translation>顾问：未加载规则</translation>
    </message>
    <message>
        <source>subsystem</source>
        <translation>子系统</translation>
    </message>
    <message>
        <source>finding</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>in</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>evidence</source>
        <translation>证据</translation>
    </message>
    <message>
        <source>source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>&amp;Apply</source>
        <translation>应用(&amp;A)</translation>
    </message>
    <message>
        <source>Rewrite the prompt as suggested (Ctrl+Z undoes it)</source>
        <translation>按建议改写提示词（Ctrl+Z 可撤销）</translation>
    </message>
    <message>
        <source>Rewrite the prompt, run the old and the new prompt with the same seed and compare them</source>
        <translation>改写提示词，用相同随机种子分别运行新旧提示词并进行对比</translation>
    </message>
    <message>
        <source>The last run&apos;s output, with the output checks&apos; findings underlined</source>
        <translation>上次运行的输出，输出检查发现的问题以下划线标出</translation>
    </message>
    <message>
        <source>K = </source>
        <translation>K = </translation>
    </message>
    <message>
        <source>Run the prompt K times with sampling and different seeds (troubleshooting quick checks)</source>
        <translation>以采样方式、不同随机种子运行提示词 K 次（故障排查快速检查）</translation>
    </message>
    <message>
        <source>Advisor unavailable: %1</source>
        <translation>顾问不可用：%1</translation>
    </message>
    <message>
        <source>prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>article heuristic</source>
        <translation>文章启发式</translation>
    </message>
    <message>
        <source>project rule</source>
        <translation>项目规则</translation>
    </message>
    <message>
        <source>No findings: no detector matches this prompt.</source>
        <translation>没有发现：没有检测器匹配此提示词。</translation>
    </message>
    <message>
        <source>Cannot apply: %1</source>
        <translation>无法应用：%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Consistency run&lt;/b&gt;: %1 samples at temperature %2, different seeds.</source>
        <translation>&lt;b&gt;一致性运行&lt;/b&gt;：温度 %2 下采样 %1 次，随机种子各不相同。</translation>
    </message>
    <message>
        <source>Output length %1–%2 tokens, spread %3% of the mean (%4).</source>
        <translation>输出长度 %1–%2 个词元，离散度为均值的 %3%（%4）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;above 15%: format instability, rte-g&lt;/b&gt;</source>
        <translation>&lt;b&gt;超过 15%：格式不稳定，rte-g&lt;/b&gt;</translation>
    </message>
    <message>
        <source>within 15%</source>
        <translation>在 15% 以内</translation>
    </message>
    <message>
        <source>Numeric answers: %1 distinct, spread %2.</source>
        <translation>数值答案：%1 个不同值，离散度 %2。</translation>
    </message>
    <message>
        <source>No numeric answers.</source>
        <translation>没有数值答案。</translation>
    </message>
    <message>
        <source>Std of the numeric tokens&apos; log-probs: %1 over %2 tokens (%3).</source>
        <translation>数值词元对数概率的标准差：%1（共 %2 个词元）（%3）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;above 0.8: sampling noise on rte-c&lt;/b&gt;</source>
        <translation>&lt;b&gt;超过 0.8：rte-c 存在采样噪声&lt;/b&gt;</translation>
    </message>
    <message>
        <source>at most 0.8</source>
        <translation>不超过 0.8</translation>
    </message>
    <message>
        <source>Top subsystem per run: %1.</source>
        <translation>每次运行的首位子系统：%1。</translation>
    </message>
    <message>
        <source>Apply &amp; compare: running the old prompt (A) and the rewritten one (B)…</source>
        <translation>应用并对比：正在运行原提示词（A）和改写后的提示词（B）…</translation>
    </message>
    <message>
        <source>&lt;b&gt;Apply &amp; compare&lt;/b&gt; (A: old prompt, B: rewritten): %1</source>
        <translation>&lt;b&gt;应用并对比&lt;/b&gt;（A：原提示词，B：改写后）：%1</translation>
    </message>
    <message>
        <source>Apply &amp;&amp; com&amp;pare</source>
        <translation>应用并对比(&amp;P)</translation>
    </message>
    <message>
        <source>Consistency r&amp;un</source>
        <translation>一致性运行(&amp;U)</translation>
    </message>
    <message>
        <source>1 finding</source>
        <translation>1 项发现</translation>
    </message>
    <message>
        <source>%1 findings</source>
        <translation>%1 项发现</translation>
    </message>
    <message>
        <source>Apply replaces “%1” with “%2”.</source>
        <translation>“应用”会把“%1”替换为“%2”。</translation>
    </message>
    <message>
        <source>Apply puts in front: &lt;tt&gt;%1&lt;/tt&gt;</source>
        <translation>“应用”会在开头加上：&lt;tt&gt;%1&lt;/tt&gt;</translation>
    </message>
    <message>
        <source>Apply adds: &lt;tt&gt;%1&lt;/tt&gt;</source>
        <translation>“应用”会添加：&lt;tt&gt;%1&lt;/tt&gt;</translation>
    </message>
    <message>
        <source>Constrained A/&amp;B</source>
        <translation>约束 A/B(&amp;B)</translation>
    </message>
    <message>
        <source>A: the rewritten prompt, free text. B: the prompt as it is, its output constrained to the schema of the fields it asks for. Same seed; the token stream marks where B was bent</source>
        <translation>A：改写后的提示词，自由文本。B：原样的提示词，其输出受所问字段的 schema 约束。种子相同；词元流标出 B 被扭转之处</translation>
    </message>
</context>
<context>
    <name>octo::ui::AnswerView</name>
    <message>
        <source>Markdown</source>
        <translation>Markdown</translation>
    </message>
    <message>
        <source>Show the answer rendered as Markdown (headings, lists, tables, code), or as the plain characters</source>
        <translation>以 Markdown 渲染显示回答（标题、列表、表格、代码），或显示原始字符</translation>
    </message>
    <message>
        <source>Beside</source>
        <translation>并排</translation>
    </message>
    <message>
        <source>Put the answer beside the token stream, or under it (remembered)</source>
        <translation>把回答放在词元流旁边或下方（会被记住）</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the answer as it is shown</source>
        <translation>按显示的样子复制回答</translation>
    </message>
    <message>
        <source>Copy Markdown</source>
        <translation>复制 Markdown</translation>
    </message>
    <message>
        <source>Copy the answer as the model wrote it (its Markdown source)</source>
        <translation>按模型写出的原样复制回答（Markdown 源文本）</translation>
    </message>
    <message>
        <source>The answer of the shown run appears here.</source>
        <translation>所显示运行的回答会出现在这里。</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <source>Answer · %1 tokens</source>
        <translation>回答 · %1 个词元</translation>
    </message>
    <message>
        <source>generating…</source>
        <translation>生成中…</translation>
    </message>
    <message>
        <source>stopped: %1</source>
        <translation>停止原因：%1</translation>
    </message>
    <message>
        <source>%1 s, %2 tokens/s</source>
        <translation>%1 秒，%2 词元/秒</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
</context>
<context>
    <name>octo::ui::AttentionView</name>
    <message>
        <source>Heads of one layer</source>
        <translation>单层的注意力头</translation>
    </message>
    <message>
        <source>Subsystems (mean over layers)</source>
        <translation>子系统（各层均值）</translation>
    </message>
    <message>
        <source>layer </source>
        <translation>层 </translation>
    </message>
    <message>
        <source>Layer whose heads are shown</source>
        <translation>显示其注意力头的层</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>attended position</source>
        <translation>被关注的位置</translation>
    </message>
    <message>
        <source>position %1 attends to positions 0 … %2</source>
        <translation>位置 %1 关注位置 0 … %2</translation>
    </message>
    <message>
        <source>No run yet: type a prompt and press Ctrl+Enter.</source>
        <translation>尚无运行：输入提示词后按 Ctrl+Enter。</translation>
    </message>
    <message>
        <source>Attention was not recorded for this run. Tick “Record attention” and run again.</source>
        <translation>本次运行未记录注意力。勾选“记录注意力”后重新运行。</translation>
    </message>
    <message>
        <source>No tokens yet.</source>
        <translation>尚无词元。</translation>
    </message>
    <message>
        <source>No attention weights for this position: select another token.</source>
        <translation>此位置没有注意力权重：请选择其他词元。</translation>
    </message>
    <message>
        <source>layer %1, head %2</source>
        <translation>第 %1 层，注意力头 %2</translation>
    </message>
    <message>
        <source>%1
position %2 “%3” → position %4 “%5”
weight %6</source>
        <translation>%1
位置 %2“%3”→ 位置 %4“%5”
权重 %6</translation>
    </message>
    <message>
        <source>A server sends no attention weights: this view shows runs on a local model only.</source>
        <translation>服务器不发送注意力权重：此视图只显示本地模型的运行。</translation>
    </message>
    <message>
        <source>position %1 attends to positions 0 … %2; the last column is each head&apos;s sink, the weight no position takes</source>
        <translation>位置 %1 关注位置 0 … %2；最后一列是每个注意力头的汇点（sink），即没有任何位置取得的权重</translation>
    </message>
    <message>
        <source>sink</source>
        <translation>汇点</translation>
    </message>
    <message>
        <source>%1
position %2 “%3” → sink
weight %4 (the share no position takes)</source>
        <translation>%1
位置 %2 “%3” → 汇点
权重 %4（没有任何位置取得的份额）</translation>
    </message>
    <message>
        <source>A%1</source>
        <extracomment>The turn marks on the attention plot: U = user, A = assistant, S = system, and the turn&apos;s number</extracomment>
        <translation>助%1</translation>
    </message>
    <message>
        <source>S%1</source>
        <translation>系%1</translation>
    </message>
    <message>
        <source>U%1</source>
        <translation>用%1</translation>
    </message>
</context>
<context>
    <name>octo::ui::BackendMenu</name>
    <message>
        <source>&amp;Backend</source>
        <translation>后端(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Auto (CUDA when usable, else CPU)</source>
        <translation>自动（可用时用 CUDA，否则用 CPU）(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;CPU</source>
        <translation>CPU(&amp;C)</translation>
    </message>
    <message>
        <source>C&amp;UDA</source>
        <translation>CUDA(&amp;U)</translation>
    </message>
</context>
<context>
    <name>octo::ui::CalibrationBanner</name>
    <message>
        <source>Cal&amp;ibrate…</source>
        <translation>校准(&amp;I)…</translation>
    </message>
    <message>
        <source>Model → Calibrate Head Map…: run the probe set and learn which heads serve which subsystem</source>
        <translation>模型 → 校准注意力头映射…：运行探针集，学习哪些注意力头服务于哪个子系统</translation>
    </message>
    <message>
        <source>Hide this note until another model is loaded</source>
        <translation>隐藏此提示，直到加载另一个模型</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; has no head map: its heads show as &lt;b&gt;group 0 … 7&lt;/b&gt;, split evenly, and carry no subsystem&apos;s meaning. Calibrate to learn which heads serve which subsystem on the probe set.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 没有注意力头映射：它的注意力头显示为 &lt;b&gt;组 0 … 7&lt;/b&gt;（平均划分），不具有任何子系统的含义。校准后可在探针集上学习哪些注意力头服务于哪个子系统。</translation>
    </message>
    <message>
        <source>The server&apos;s model &lt;b&gt;%1&lt;/b&gt; has no head map: its heads show as &lt;b&gt;group 0 … 7&lt;/b&gt;, split evenly, and carry no subsystem&apos;s meaning. Calibration needs the model file: run &lt;tt&gt;octoscope-cli calibrate&lt;/tt&gt; where the server runs, then restart the server.</source>
        <translation>服务器的模型 &lt;b&gt;%1&lt;/b&gt; 没有头映射：它的头显示为均匀划分的 &lt;b&gt;组 0 … 7&lt;/b&gt;，不代表任何子系统的含义。校准需要模型文件：请在服务器所在的机器上运行 &lt;tt&gt;octoscope-cli calibrate&lt;/tt&gt;，然后重启服务器。</translation>
    </message>
</context>
<context>
    <name>octo::ui::CaptureController</name>
    <message>
        <source>Re-run Capture</source>
        <translation>重新运行捕获</translation>
    </message>
    <message>
        <source>%1

Pick the model file?</source>
        <translation>%1

要选择模型文件吗？</translation>
    </message>
    <message>
        <source>The capture&apos;s model</source>
        <translation>捕获所用的模型</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Octoscope</source>
        <translation>Octoscope</translation>
    </message>
    <message>
        <source>Capture %1 — %2, %3</source>
        <translation>捕获 %1 — %2，%3</translation>
    </message>
    <message>
        <source>Octoscope — capture %1 (%2, %3)</source>
        <translation>Octoscope — 捕获 %1（%2，%3）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Cannot save the capture</source>
        <translation>无法保存捕获</translation>
    </message>
    <message>
        <source>Saving the capture %1…</source>
        <translation>正在保存捕获 %1…</translation>
    </message>
    <message>
        <source>Saved the capture %1</source>
        <translation>已保存捕获 %1</translation>
    </message>
    <message>
        <source>Opening the capture %1…</source>
        <translation>正在打开捕获 %1…</translation>
    </message>
    <message>
        <source>Cannot open the capture</source>
        <translation>无法打开捕获</translation>
    </message>
    <message>
        <source>Opened the capture %1: %2 tokens of %3, run on the server %4</source>
        <translation>已打开捕获 %1：%3 的 %2 个词元，运行于服务器 %4</translation>
    </message>
    <message>
        <source>This run was on the server %1 (model %2). Repeat it there with:
octoscope-cli replay &quot;%3&quot;</source>
        <translation>这次运行在服务器 %1（模型 %2）上。请在那里重复它：
octoscope-cli replay &quot;%3&quot;</translation>
    </message>
    <message>
        <source>Show a capture first (File → Open Capture…).</source>
        <translation>请先显示一个捕获（文件 → 打开捕获…）。</translation>
    </message>
    <message>
        <source>The capture&apos;s model is missing or differs: %1</source>
        <translation>捕获所用的模型缺失或不一致：%1</translation>
    </message>
    <message>
        <source>Not re-run: %1</source>
        <translation>未重新运行：%1</translation>
    </message>
    <message>
        <source>Cannot load the capture&apos;s model: %1</source>
        <translation>无法加载捕获所用的模型：%1</translation>
    </message>
    <message>
        <source>Loading the capture&apos;s model %1 to re-run it…</source>
        <translation>正在加载捕获所用的模型 %1 以重新运行…</translation>
    </message>
    <message>
        <source>The re-run did not finish: %1</source>
        <translation>重新运行未完成：%1</translation>
    </message>
    <message>
        <source>dropped from the history</source>
        <translation>已从历史中移除</translation>
    </message>
    <message>
        <source>Re-run identical: all %1 generated tokens repeated.</source>
        <translation>重新运行结果一致：全部 %1 个生成的词元均相同。</translation>
    </message>
    <message>
        <source>Re-run differs: the prompt tokenized differently; the generated tokens are the same.</source>
        <translation>重新运行结果不同：提示词的分词不同；生成的词元相同。</translation>
    </message>
    <message>
        <source>(ended)</source>
        <translation>（已结束）</translation>
    </message>
    <message>
        <source>Re-run differs: first divergence at generated token %1 — recorded %2, now %3.</source>
        <translation>重新运行结果不同：首个分歧位于生成的第 %1 个词元——记录为 %2，现在为 %3。</translation>
    </message>
    <message>
        <source> The workbench did not repeat %1; `octoscope-cli replay` does.</source>
        <translation> 工作台未重复 %1；`octoscope-cli replay` 会重复。</translation>
    </message>
    <message>
        <source>Cannot export a bug report</source>
        <translation>无法导出错误报告</translation>
    </message>
    <message>
        <source>Wrote the bug report to %1</source>
        <translation>已将错误报告写入 %1</translation>
    </message>
    <message>
        <source>Computing the model&apos;s SHA-256 to save the capture %1…</source>
        <translation>正在计算模型的 SHA-256，完成后保存捕获 %1…</translation>
    </message>
    <message>
        <source>Another model was loaded before this one&apos;s SHA-256 was computed.</source>
        <translation>在此模型的 SHA-256 计算完成之前，已加载了另一个模型。</translation>
    </message>
    <message>
        <source>recorded; its model is loaded</source>
        <translation>按记录显示；其模型已加载</translation>
    </message>
    <message>
        <source>recorded; its model is not loaded</source>
        <translation>按记录显示；其模型未加载</translation>
    </message>
    <message>
        <source>Opened the capture %1: %2 tokens of %3, shown as recorded; its model is loaded (Run → Re-run Capture runs it again)</source>
        <translation>已打开捕获 %1：%3 的 %2 个词元，按记录显示；其模型已加载（运行 → 重新运行捕获 可再次运行）</translation>
    </message>
    <message>
        <source>Opened the capture %1: %2 tokens of %3, shown as recorded; its model is not loaded</source>
        <translation>已打开捕获 %1：%3 的 %2 个词元，按记录显示；其模型未加载</translation>
    </message>
    <message>
        <source>Open a capture</source>
        <translation>打开捕获</translation>
    </message>
    <message>
        <source>Octoscope captures (*.octo);;All files (*)</source>
        <translation>Octoscope 捕获 (*.octo);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save the shown run as a capture</source>
        <translation>将当前显示的运行保存为捕获</translation>
    </message>
    <message>
        <source>Octoscope captures (*.octo)</source>
        <translation>Octoscope 捕获 (*.octo)</translation>
    </message>
    <message>
        <source>Folder to write the bug report into</source>
        <translation>写入错误报告的文件夹</translation>
    </message>
</context>
<context>
    <name>octo::ui::ClaimPlotView</name>
    <message>
        <source>%1 switched off, items of %2: %3 %4</source>
        <translation>关闭 %1，%2 的题目：%3 %4</translation>
    </message>
    <message>
        <source>Not measurable here: %1</source>
        <translation>无法在此测量：%1</translation>
    </message>
    <message>
        <source>Select a claim.</source>
        <translation>请选择一个论断。</translation>
    </message>
    <message>
        <source>Not run yet: press Run Selected or Run All.</source>
        <translation>尚未运行：请点击“运行所选”或“全部运行”。</translation>
    </message>
    <message>
        <source>No plot: %1</source>
        <translation>没有图：%1</translation>
    </message>
    <message>
        <source>total time (ms)</source>
        <translation>总耗时（毫秒）</translation>
    </message>
    <message>
        <source>time to first token (ms)</source>
        <translation>首个 token 耗时（毫秒）</translation>
    </message>
    <message>
        <source>prompts</source>
        <translation>提示词数</translation>
    </message>
    <message>
        <source>routing accuracy</source>
        <translation>路由准确率</translation>
    </message>
    <message>
        <source>share of tokens after a digit that the subsystem tops</source>
        <translation>数字之后的 token 中该子系统份额最大的比例</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>share among the subsystems still on</source>
        <translation>在仍开启的子系统中的份额</translation>
    </message>
    <message>
        <source>share of prompt tokens reused</source>
        <translation>复用的提示词 token 比例</translation>
    </message>
    <message>
        <source>relative position in the answer</source>
        <translation>在回答中的相对位置</translation>
    </message>
    <message>
        <source>switched off</source>
        <translation>关闭的子系统</translation>
    </message>
    <message>
        <source>items of</source>
        <translation>题目所属</translation>
    </message>
    <message>
        <source>accuracy drop</source>
        <translation>准确率下降</translation>
    </message>
    <message>
        <source>stage 1 (embedding)</source>
        <translation>第一阶段（嵌入）</translation>
    </message>
    <message>
        <source>two-stage</source>
        <translation>两阶段</translation>
    </message>
    <message>
        <source>all on</source>
        <translation>全部开启</translation>
    </message>
    <message>
        <source>cache hit</source>
        <translation>缓存命中</translation>
    </message>
    <message>
        <source>standard</source>
        <translation>标准</translation>
    </message>
    <message>
        <source>degraded</source>
        <translation>降级</translation>
    </message>
    <message>
        <source>first run</source>
        <translation>首次运行</translation>
    </message>
    <message>
        <source>rerun</source>
        <translation>重新运行</translation>
    </message>
    <message>
        <source>append</source>
        <translation>追加</translation>
    </message>
    <message>
        <source>edit_end</source>
        <translation>修改结尾</translation>
    </message>
    <message>
        <source>edit_start</source>
        <translation>修改开头</translation>
    </message>
    <message>
        <source>%1 share</source>
        <translation>%1 份额</translation>
    </message>
    <message>
        <source>%1 off</source>
        <translation>%1 关闭</translation>
    </message>
    <message>
        <source>specialisation</source>
        <translation>专门化</translation>
    </message>
    <message>
        <source>error propagation</source>
        <translation>错误传播</translation>
    </message>
    <message>
        <source>share of items</source>
        <translation>题目比例</translation>
    </message>
    <message>
        <source>%1 groups</source>
        <translation>%1 组</translation>
    </message>
</context>
<context>
    <name>octo::ui::ClaimVerdictView</name>
    <message>
        <source>Select a claim.</source>
        <translation>选择一个论断。</translation>
    </message>
    <message>
        <source>Not measurable here: nothing to draw.</source>
        <translation>无法在此测量：没有可画的内容。</translation>
    </message>
    <message>
        <source>Not run yet: press Run Selected or Run All.</source>
        <translation>尚未运行：请点击“运行所选”或“全部运行”。</translation>
    </message>
    <message>
        <source>Nothing was measured, so there is no interval to draw.</source>
        <translation>没有测得任何值，因此没有区间可画。</translation>
    </message>
    <message>
        <source>%</source>
        <translation>%</translation>
    </message>
    <message>
        <source>points</source>
        <translation>百分点</translation>
    </message>
    <message>
        <source>measured, 95 % interval</source>
        <translation>测得值，95% 区间</translation>
    </message>
    <message>
        <source>shuffled-map control</source>
        <translation>打乱映射对照</translation>
    </message>
    <message>
        <source>threshold %1</source>
        <translation>阈值 %1</translation>
    </message>
    <message>
        <source>article (GPT-4, unverified)</source>
        <translation>文章（GPT-4，未验证）</translation>
    </message>
    <message>
        <source>article</source>
        <translation>文章</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>测得</translation>
    </message>
    <message>
        <source>control</source>
        <translation>对照</translation>
    </message>
    <message>
        <source>measured: %1</source>
        <translation>测得：%1</translation>
    </message>
    <message>
        <source>shuffled-map control: %1</source>
        <translation>打乱映射对照：%1</translation>
    </message>
    <message>
        <source>article (GPT-4, unverified): %1</source>
        <translation>文章（GPT-4，未验证）：%1</translation>
    </message>
</context>
<context>
    <name>octo::ui::ClaimsPanel</name>
    <message>
        <source>not measurable here</source>
        <translation>无法在此测量</translation>
    </message>
    <message>
        <source>holds</source>
        <translation>成立</translation>
    </message>
    <message>
        <source>does not hold</source>
        <translation>不成立</translation>
    </message>
    <message>
        <source>inconclusive</source>
        <translation>无定论</translation>
    </message>
    <message>
        <source>not measurable on this model</source>
        <translation>无法在此模型上测量</translation>
    </message>
    <message>
        <source>uninformative</source>
        <translation>数据无信息量</translation>
    </message>
    <message>
        <source>Interval: %1</source>
        <translation>区间：%1</translation>
    </message>
    <message>
        <source>exact McNemar p = %1</source>
        <translation>McNemar 精确检验 p = %1</translation>
    </message>
    <message>
        <source>Why no verdict: %1</source>
        <translation>为何没有结论：%1</translation>
    </message>
    <message>
        <source>Verdict: %1</source>
        <translation>结论：%1</translation>
    </message>
    <message>
        <source>one-sided p = %1, compared with %2 (Holm&apos;s correction over %3 claims run together)</source>
        <translation>单侧 p = %1，比较水平 %2（对一起运行的 %3 个论断做 Holm 校正）</translation>
    </message>
    <message>
        <source>Run Selected</source>
        <translation>运行所选</translation>
    </message>
    <message>
        <source>Run All</source>
        <translation>全部运行</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Export Report…</source>
        <translation>导出报告…</translation>
    </message>
    <message>
        <source>Present…</source>
        <translation>演示…</translation>
    </message>
    <message>
        <source>Measure every claim on the loaded model (about a minute on octet)</source>
        <translation>在已加载的模型上测量全部论断（octet 上约一分钟）</translation>
    </message>
    <message>
        <source>Step through the claims one by one, full screen, for a lecture (F11)</source>
        <translation>逐条全屏展示论断，用于讲课（F11）</translation>
    </message>
    <message>
        <source>How many task items of each subsystem every claim uses (0: the number the claims file gives)</source>
        <translation>每个论断使用每个子系统的多少条任务（0：使用论断文件给出的数量）</translation>
    </message>
    <message>
        <source>seed: </source>
        <translation>种子：</translation>
    </message>
    <message>
        <source>Chooses the items and the bootstrap resamples: the same seed gives the same report</source>
        <translation>决定所选条目和自助重抽样：相同的种子给出相同的报告</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Claim</source>
        <translation>论断</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>Measured [95 % interval]</source>
        <translation>测得值 [95% 区间]</translation>
    </message>
    <message>
        <source>n</source>
        <translation>n</translation>
    </message>
    <message>
        <source>Article (GPT-4, unverified)</source>
        <translation>文章（GPT-4，未经验证）</translation>
    </message>
    <message>
        <source>Export Claims Report To</source>
        <translation>将论断报告导出到</translation>
    </message>
    <message>
        <source>claim %1 of %2: %3 — %4 / %5</source>
        <translation>第 %1 / %2 个论断：%3 — %4 / %5</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>stopped: the claims that finished are shown</source>
        <translation>已停止：显示已完成的论断</translation>
    </message>
    <message>
        <source>Claims measured</source>
        <translation>论断已测量</translation>
    </message>
    <message>
        <source>Claims run stopped</source>
        <translation>论断运行已停止</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Claims run failed: %1</source>
        <translation>论断运行失败：%1</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>The article&apos;s figures are claims about GPT-4 that nobody can check. Run the claims to measure each one on the loaded model, with its 95 % interval.</source>
        <translation>文章中的数字是关于 GPT-4 的论断，无人能够核实。运行论断，在已加载的模型上逐一测量，并给出 95% 区间。</translation>
    </message>
    <message>
        <source>Measured on %1 with its %2 (metric %3), seed %4. %5</source>
        <translation>在 %1 上测量，使用其%2（度量 %3），种子 %4。%5</translation>
    </message>
    <message>
        <source>The article&apos;s figure for GPT-4: a claim, never measured here</source>
        <translation>文章给出的 GPT-4 数字：只是论断，这里从未测量</translation>
    </message>
    <message>
        <source>not run</source>
        <translation>未运行</translation>
    </message>
    <message>
        <source>Article, section %1: &lt;b&gt;%2&lt;/b&gt; (about GPT-4, unverified)</source>
        <translation>文章第 %1 节：&lt;b&gt;%2&lt;/b&gt;（关于 GPT-4，未经验证）</translation>
    </message>
    <message>
        <source>Holds when: %1</source>
        <translation>成立的条件：%1</translation>
    </message>
    <message>
        <source>Measured: &lt;b&gt;%1&lt;/b&gt;, 95 % interval [%2, %3], n = %4 — &lt;span style=&quot;background:%5;color:white&quot;&gt;&amp;nbsp;%6&amp;nbsp;&lt;/span&gt;</source>
        <translation>测得：&lt;b&gt;%1&lt;/b&gt;，95% 区间 [%2, %3]，n = %4 — &lt;span style=&quot;background:%5;color:white&quot;&gt;&amp;nbsp;%6&amp;nbsp;&lt;/span&gt;</translation>
    </message>
    <message>
        <source>Method: %1</source>
        <translation>方法（英文）：%1</translation>
    </message>
    <message>
        <source>Nothing to export: run the claims first</source>
        <translation>没有可导出的内容：请先运行论断</translation>
    </message>
    <message>
        <source>Cannot create %1</source>
        <translation>无法创建 %1</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
    <message>
        <source>Report written to %1 (%2 files)</source>
        <translation>报告已写入 %1（%2 个文件）</translation>
    </message>
    <message>
        <source>items: each claim&apos;s own</source>
        <translation>条目数：各论断的默认值</translation>
    </message>
    <message>
        <source>items: </source>
        <translation>条目数：</translation>
    </message>
    <message>
        <source>Plot</source>
        <translation>图</translation>
    </message>
    <message>
        <source>Claim and method</source>
        <translation>论断与方法</translation>
    </message>
    <message>
        <source>Measure the selected claims on the loaded model (Ctrl+click selects several)</source>
        <translation>在已加载的模型上测量所选论断（按住 Ctrl 点击可多选）</translation>
    </message>
</context>
<context>
    <name>octo::ui::ClaimsPresenter</name>
    <message>
        <source>The article says: %1 — about GPT-4, unverified.</source>
        <translation>文章说：%1 — 关于 GPT-4，未经验证。</translation>
    </message>
    <message>
        <source>Claims — presenter</source>
        <translation>论断 — 演示</translation>
    </message>
    <message>
        <source>← Previous</source>
        <translation>← 上一个</translation>
    </message>
    <message>
        <source>Next →</source>
        <translation>下一个 →</translation>
    </message>
    <message>
        <source>Full Screen (F11)</source>
        <translation>全屏（F11）</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>关闭（Esc）</translation>
    </message>
    <message>
        <source>Claim %1 of %2 · article section %3 · %4</source>
        <translation>第 %1 / %2 个论断 · 文章第 %3 节 · %4</translation>
    </message>
    <message>
        <source>The article says: %1 — about GPT-4, unverified. Holds here when %2.</source>
        <translation>文章说：%1 — 关于 GPT-4，未经验证。在这里成立的条件：%2。</translation>
    </message>
    <message>
        <source>Measured: %1 &amp;nbsp; 95 %: [%2, %3] &amp;nbsp; n = %4 &amp;nbsp; &lt;span style=&quot;background:%5;color:white&quot;&gt;&amp;nbsp;%6&amp;nbsp;&lt;/span&gt;</source>
        <translation>测得：%1 &amp;nbsp; 95%：[%2, %3] &amp;nbsp; n = %4 &amp;nbsp; &lt;span style=&quot;background:%5;color:white&quot;&gt;&amp;nbsp;%6&amp;nbsp;&lt;/span&gt;</translation>
    </message>
    <message>
        <source>Not measured yet: run the claims in the Claims panel.</source>
        <translation>尚未测量：请在“论断”面板中运行论断。</translation>
    </message>
    <message>
        <source>Model: %1 · %2. %3</source>
        <translation>模型：%1 · %2。%3</translation>
    </message>
</context>
<context>
    <name>octo::ui::CoherenceBox</name>
    <message>
        <source>Entity reference</source>
        <translation>实体指代</translation>
    </message>
    <message>
        <source>Logical continuity</source>
        <translation>逻辑连贯</translation>
    </message>
    <message>
        <source>Sentiment</source>
        <translation>情感</translation>
    </message>
    <message>
        <source>Conversation coherence</source>
        <translation>对话连贯性</translation>
    </message>
    <message>
        <source>Turn</source>
        <translation>回合</translation>
    </message>
    <message>
        <source>Measure</source>
        <translation>度量</translation>
    </message>
    <message>
        <source>What changed</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>Coherence measures unavailable: %1</source>
        <translation>连贯性度量不可用：%1</translation>
    </message>
    <message>
        <source>No conversation shown: its coherence over turns is measured here (Conversation panel).</source>
        <translation>未显示对话：对话各回合的连贯性在此测量（对话面板）。</translation>
    </message>
    <message>
        <source>Findings: %1. Windows of 3 assistant turns without a break (of %2): entity %3 %, logic %4 %, sentiment %5 %.</source>
        <translation>发现：%1。无断裂的 3 个助手回合窗口（共 %2 个）：实体 %3%，逻辑 %4%，情感 %5%。</translation>
    </message>
    <message>
        <source>“%1” (turn %2) → “%3”</source>
        <translation>“%1”（第 %2 回合）→“%3”</translation>
    </message>
    <message>
        <source>%1
Suggestion: %2</source>
        <translation>%1
建议：%2</translation>
    </message>
</context>
<context>
    <name>octo::ui::CompareView</name>
    <message>
        <source>Use “Apply &amp; compare” in the advisor to compare a prompt with its rewrite.</source>
        <translation>在顾问中使用“应用并对比”，将提示词与其改写版本进行对比。</translation>
    </message>
    <message>
        <source>generated token</source>
        <translation>生成的词元</translation>
    </message>
    <message>
        <source>log-prob B − A</source>
        <translation>对数概率 B − A</translation>
    </message>
    <message>
        <source>subsystem</source>
        <translation>子系统</translation>
    </message>
    <message>
        <source>share B − A (points)</source>
        <translation>份额 B − A（百分点）</translation>
    </message>
    <message>
        <source>norm B − A</source>
        <translation>范数 B − A</translation>
    </message>
    <message>
        <source>head</source>
        <translation>注意力头</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>&lt;b&gt;Changed:&lt;/b&gt; %1.</source>
        <translation>&lt;b&gt;改动：&lt;/b&gt;%1。</translation>
    </message>
    <message>
        <source>The answers part at generated token %1: A “%2”, B “%3”.</source>
        <translation>两个回答在第 %1 个生成词元处分叉：A “%2”，B “%3”。</translation>
    </message>
    <message>
        <source>Mean log-prob per generated token: A %1, B %2 (%3%4).</source>
        <translation>每个生成词元的平均对数概率：A %1，B %2（%3%4）。</translation>
    </message>
    <message>
        <source>%1 %2%3 pts</source>
        <translation>%1 %2%3 个百分点</translation>
    </message>
    <message>
        <source>Subsystem shares (%1, mean over the answer), largest changes: %2.</source>
        <translation>子系统份额（%1，回答上的均值），变化最大的是：%2。</translation>
    </message>
    <message>
        <source>Largest head-norm change: layer %1, head %2: %3.</source>
        <translation>注意力头范数变化最大：第 %1 层，第 %2 个头：%3。</translation>
    </message>
    <message>
        <source>No comparison yet.</source>
        <translation>尚无对比。</translation>
    </message>
    <message>
        <source>Neither run generated a token.</source>
        <translation>两次运行都没有生成词元。</translation>
    </message>
    <message>
        <source>Subsystem shares were not recorded for both runs.</source>
        <translation>两次运行未都记录子系统份额。</translation>
    </message>
    <message>
        <source>Head norms were not recorded for both runs.</source>
        <translation>两次运行未都记录注意力头范数。</translation>
    </message>
    <message>
        <source>layer %1, head %2: norm B − A = %3</source>
        <translation>第 %1 层，注意力头 %2：范数 B − A = %3</translation>
    </message>
    <message>
        <source>Both runs generated the same token.</source>
        <translation>两次运行生成了相同的词元。</translation>
    </message>
    <message>
        <source>Both runs generated the same %1 tokens.</source>
        <translation>两次运行生成了相同的 %1 个词元。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Two models:&lt;/b&gt; A ran on %1, B on %2; tokens aligned by their text.</source>
        <translation>&lt;b&gt;两个模型：&lt;/b&gt;A 在 %1 上运行，B 在 %2 上运行；词元按文本对齐。</translation>
    </message>
    <message>
        <source>Their heads are laid out differently: head norms are not compared.</source>
        <translation>两者的注意力头布局不同：不比较头范数。</translation>
    </message>
    <message>
        <source>Expert routing where the context is the same (the prompt, and the answers until they part): %1 % of the chosen experts the same (overlap per position), least in layer %2 (%3 %).</source>
        <translation>上下文相同处（提示词，以及回答分歧之前）的专家路由：%1 % 的所选专家相同（逐位置重叠），最少的是第 %2 层（%3 %）。</translation>
    </message>
</context>
<context>
    <name>octo::ui::ConversationController</name>
    <message>
        <source>Cannot open the conversation: %1</source>
        <translation>无法打开对话：%1</translation>
    </message>
    <message>
        <source>Wait for the turn being generated, or cancel it (Esc).</source>
        <translation>请等待正在生成的回合，或取消它（Esc）。</translation>
    </message>
    <message>
        <source>A system message is accepted only as the first message: start a new conversation.</source>
        <translation>系统消息只能作为第一条消息：请开始新的对话。</translation>
    </message>
    <message>
        <source>These conversations cannot be compared: each needs a last turn of its own, run on the same model.</source>
        <translation>无法对比这两个对话：每个对话都需要有自己的最后回合，并在同一模型上运行。</translation>
    </message>
    <message>
        <source>No conversation to save: start one in the Conversation panel.</source>
        <translation>没有可保存的对话：请在对话面板中开始一个。</translation>
    </message>
    <message>
        <source>Cannot save the conversation: %1</source>
        <translation>无法保存对话：%1</translation>
    </message>
    <message>
        <source>Saved %1 messages to %2</source>
        <translation>已将 %1 条消息保存到 %2</translation>
    </message>
    <message>
        <source>Open a conversation</source>
        <translation>打开对话</translation>
    </message>
    <message>
        <source>Conversations (*.json);;All files (*)</source>
        <translation>对话 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save the shown conversation</source>
        <translation>保存显示的对话</translation>
    </message>
    <message>
        <source>Conversation stopped: the turn was cancelled.</source>
        <translation>对话已停止：该回合已取消。</translation>
    </message>
    <message>
        <source>Conversation stopped: %1</source>
        <translation>对话已停止：%1</translation>
    </message>
    <message>
        <source>Conversation stopped: another run replaced its next turn before it started.</source>
        <translation>对话已停止：另一次运行在下一回合开始前取代了它。</translation>
    </message>
</context>
<context>
    <name>octo::ui::ConversationPanel</name>
    <message>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>Start a new conversation with the next message</source>
        <translation>用下一条消息开始新的对话</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>The shown conversation&apos;s last turn against the chosen one&apos;s, in the A/B compare dock</source>
        <translation>在 A/B 对比面板中对比显示的对话与所选对话的最后回合</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <source>Put the selected turn into the composer; sending it makes a branch from there (the original stays)</source>
        <translation>把选中的回合放入编辑框；发送后从该处建立分支（原对话保留）</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <source>Generate the selected assistant turn again, in a branch (the original stays)</source>
        <translation>在分支中重新生成选中的助手回合（原对话保留）</translation>
    </message>
    <message>
        <source>Branch here</source>
        <translation>从此分支</translation>
    </message>
    <message>
        <source>A new conversation with the turns up to the selected one, to continue differently</source>
        <translation>以截至选中回合的内容建立新对话，以不同方式继续</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>Who says the next turn: a user turn is answered by the model, an assistant turn is measured as written, a system message only opens a conversation</source>
        <translation>下一回合由谁说：用户回合由模型回答，助手回合按原文测量，系统消息只能开启对话</translation>
    </message>
    <message>
        <source>The next turn (Ctrl+Enter sends it)</source>
        <translation>下一回合（Ctrl+Enter 发送）</translation>
    </message>
    <message>
        <source>Send as Branch</source>
        <translation>作为分支发送</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Cancel the turn being generated and the turns waiting after it</source>
        <translation>取消正在生成的回合及其后等待的回合</translation>
    </message>
    <message>
        <source>Turn</source>
        <translation>回合</translation>
    </message>
    <message>
        <source>Prompt tokens</source>
        <translation>提示词词元</translation>
    </message>
    <message>
        <source>Reused</source>
        <translation>复用</translation>
    </message>
    <message>
        <source>Evaluated</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Prefill ms</source>
        <translation>预填充 ms</translation>
    </message>
    <message>
        <source>Generated</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>词元/秒</translation>
    </message>
    <message>
        <source>KV blocks</source>
        <translation>KV 块</translation>
    </message>
    <message>
        <source>Prompt tokens taken from the KV pool: the conversation so far, whole blocks</source>
        <translation>从 KV 池取用的提示词词元：此前的对话，按整块计</translation>
    </message>
    <message>
        <source>KV blocks held or cached when the turn&apos;s run ended</source>
        <translation>该回合运行结束时占用或缓存的 KV 块</translation>
    </message>
    <message>
        <source>Conversation %1</source>
        <translation>对话 %1</translation>
    </message>
    <message>
        <source>Conversation %1 (branch of %2 after turn %3)</source>
        <translation>对话 %1（对话 %2 第 %3 回合后的分支）</translation>
    </message>
    <message>
        <source>No model loaded.</source>
        <translation>未加载模型。</translation>
    </message>
    <message>
        <source>Turns run on the server %1: its answers are measured, the given turns are not evaluated there.</source>
        <translation>回合在服务器 %1 上运行：测量它的回答，给定的回合不在那里计算。</translation>
    </message>
    <message>
        <source>This model states a prompt template and no chat template: only the last user message reaches it, so its turns share no prefix and it cannot see earlier turns.</source>
        <translation>此模型声明了提示词模板而没有聊天模板：只有最后一条用户消息会送达模型，因此各回合没有共同前缀，模型也看不到之前的回合。</translation>
    </message>
    <message>
        <source>Turns reach the model through its %1; each turn reuses the KV blocks of the conversation so far.</source>
        <translation>各回合通过模型的 %1 送达；每个回合复用此前对话的 KV 块。</translation>
    </message>
    <message>
        <source>%1 (run %2)</source>
        <translation>%1（运行 %2）</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>Editing turn %1: Send makes a branch from there (Esc leaves the edit).</source>
        <translation>正在编辑第 %1 回合：发送后从该处建立分支（Esc 退出编辑）。</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>表格</translation>
    </message>
    <message>
        <source>Per turn</source>
        <translation>逐回合</translation>
    </message>
    <message>
        <source>Each turn&apos;s prompt tokens, reused from the KV pool and evaluated, and its prefill time</source>
        <translation>每个回合的提示词词元（从 KV 池复用的与计算的）及其预填充时间</translation>
    </message>
    <message>
        <source>Prompt tokens computed by this turn&apos;s run (the rest of the prompt)</source>
        <translation>本回合运行计算的提示词词元（提示词的其余部分）</translation>
    </message>
</context>
<context>
    <name>octo::ui::ConversationTranscript</name>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>No conversation yet: type a message below and press Ctrl+Enter, or open one (File → Open Conversation…, Help → Examples…).</source>
        <translation>尚无对话：在下方输入消息并按 Ctrl+Enter，或打开一个（文件 → 打开对话…，帮助 → 示例…）。</translation>
    </message>
    <message>
        <source>generating…</source>
        <translation>生成中…</translation>
    </message>
    <message>
        <source>generated</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>given</source>
        <translation>给定</translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>%1 tokens reused, %2 evaluated</source>
        <translation>复用 %1 个词元，计算 %2 个</translation>
    </message>
    <message>
        <source>token %1 · %2</source>
        <translation>词元 %1 · %2</translation>
    </message>
    <message>
        <source>(not in the prompt the model read)</source>
        <translation>（不在模型读取的提示词中）</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
</context>
<context>
    <name>octo::ui::ConversationTurnsPlot</name>
    <message>
        <source>reused from the KV pool</source>
        <translation>从 KV 池复用</translation>
    </message>
    <message>
        <source>evaluated</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>prefill ms</source>
        <translation>预填充 ms</translation>
    </message>
    <message>
        <source>turn</source>
        <translation>回合</translation>
    </message>
    <message>
        <source>prompt tokens</source>
        <translation>提示词词元</translation>
    </message>
    <message>
        <source>turn %1: %2 prompt tokens, %3 reused, %4 evaluated; prefill %5 ms</source>
        <translation>第 %1 回合：%2 个提示词词元，复用 %3 个，计算 %4 个；预填充 %5 ms</translation>
    </message>
    <message>
        <source>No turn has run yet: each assistant turn&apos;s prompt tokens (reused and evaluated) and prefill time appear here.</source>
        <translation>尚无回合运行：每个助手回合的提示词词元（复用与计算）和预填充时间会显示在这里。</translation>
    </message>
</context>
<context>
    <name>octo::ui::CrashRecovery</name>
    <message>
        <source>Autosave failed: %1</source>
        <translation>自动保存失败：%1</translation>
    </message>
    <message>
        <source>Octoscope did not exit cleanly, and its autosave cannot be read (%1). It was kept as %2.</source>
        <translation>Octoscope 上次未正常退出，且其自动保存无法读取（%1）。该文件已保留为 %2。</translation>
    </message>
    <message>
        <source>Restored the prompt and settings autosaved at %1</source>
        <translation>已恢复于 %1 自动保存的提示词与设置</translation>
    </message>
    <message>
        <source>Restore the last session?</source>
        <translation>恢复上次的会话？</translation>
    </message>
    <message>
        <source>Octoscope did not exit cleanly. Restore the prompt and settings autosaved at %1?</source>
        <translation>Octoscope 上次未正常退出。要恢复于 %1 自动保存的提示词与设置吗？</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>丢弃</translation>
    </message>
</context>
<context>
    <name>octo::ui::DockLayout</name>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>Subsystems</source>
        <translation>子系统</translation>
    </message>
    <message>
        <source>Run history</source>
        <translation>运行历史</translation>
    </message>
    <message>
        <source>Router</source>
        <translation>路由器</translation>
    </message>
    <message>
        <source>Layers × heads</source>
        <translation>层 × 注意力头</translation>
    </message>
    <message>
        <source>Experts</source>
        <translation>专家</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Tokens × subsystems</source>
        <translation>词元 × 子系统</translation>
    </message>
    <message>
        <source>KV pool</source>
        <translation>KV 池</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>Advisor</source>
        <translation>顾问</translation>
    </message>
    <message>
        <source>A/B compare</source>
        <translation>A/B 对比</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Claims</source>
        <translation>论断</translation>
    </message>
    <message>
        <source>Presenter</source>
        <translation>演示者</translation>
    </message>
    <message>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>Logit lens</source>
        <translation>逻辑透镜</translation>
    </message>
</context>
<context>
    <name>octo::ui::Documentation</name>
    <message>
        <source>The documentation was not found. It is installed in /usr/share/doc/octoscope (the Debian package) or &lt;prefix&gt;/share/doc/octoscope, and it is the docs/ folder of the source tree; README.md there lists every document. Looked for:</source>
        <translation>找不到文档。文档安装在 /usr/share/doc/octoscope（Debian 软件包）或 &lt;prefix&gt;/share/doc/octoscope，在源代码树中是 docs/ 文件夹；其中的 README.md 列出了全部文档。查找过：</translation>
    </message>
    <message>
        <source>(no resource folder was found)</source>
        <translation>（未找到资源文件夹）</translation>
    </message>
    <message>
        <source>No application opens %1. Open it in a text editor or a Markdown viewer.</source>
        <translation>没有应用程序能打开 %1。请用文本编辑器或 Markdown 查看器打开它。</translation>
    </message>
    <message>
        <source>Documentation</source>
        <translation>文档</translation>
    </message>
</context>
<context>
    <name>octo::ui::ExamplesDialog</name>
    <message>
        <source>Examples</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>Prompt &amp;language:</source>
        <translation>提示词语言(&amp;L)：</translation>
    </message>
    <message>
        <source>Subsystem</source>
        <translation>子系统</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>octet answers</source>
        <translation>octet 的回答</translation>
    </message>
    <message>
        <source>What it shows</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>&amp;Use Prompt</source>
        <translation>使用提示词(&amp;U)</translation>
    </message>
    <message>
        <source>Put the prompt into the prompt editor (Enter)</source>
        <translation>把提示词放进提示词编辑器（Enter）</translation>
    </message>
    <message>
        <source>Use and &amp;Run</source>
        <translation>使用并运行(&amp;R)</translation>
    </message>
    <message>
        <source>Put the prompt into the prompt editor and run it on the loaded model</source>
        <translation>把提示词放进提示词编辑器，并在已加载的模型上运行</translation>
    </message>
    <message>
        <source>The examples cannot be read: %1</source>
        <translation>无法读取示例：%1</translation>
    </message>
    <message>
        <source>Prompts the built-in model &lt;b&gt;octet&lt;/b&gt; answers correctly — at least one for each of its eight subsystems. octet is a small teaching model, not a chat model: it answers prompts like these and little else. The answers hold at temperature 0, without chat mode; another model may answer differently. The conversations at the end open in the Conversation panel, one turn after another.</source>
        <translation>内置模型 &lt;b&gt;octet&lt;/b&gt; 能答对的提示词——八个子系统每个至少一条。octet 是一个小型教学模型，不是聊天模型：它能回答这类提示词，别的几乎答不了。这些答案在温度为 0、不用对话模式时成立；换成别的模型，回答可能不同。末尾的对话会在对话面板中一个回合接一个回合地打开。</translation>
    </message>
    <message>
        <source>(assistant turns given)</source>
        <translation>（助手回合为给定）</translation>
    </message>
    <message>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
</context>
<context>
    <name>octo::ui::ExpertsHelp</name>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Real experts are not the article&apos;s subsystems.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;In a mixture-of-experts model (Mixtral, OLMoE, Qwen-MoE, Qwen3-MoE) the feed-forward block of every layer is replaced by several small networks, the &lt;i&gt;experts&lt;/i&gt;, and a router — one linear layer — that picks a few of them for each token: softmax over the experts, the most probable ones kept, their outputs added with the router&apos;s weights. That routing is computed, and the Experts panel shows it as it happened: layers × experts for a token, tokens × experts for one layer, and how often each expert was chosen.&lt;/p&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;Experts replace the feed-forward block, per layer and per token.&lt;/b&gt; Expert 5 of layer 3 and expert 5 of layer 4 share nothing but a number; a token is routed again in every layer.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Attention is not routed.&lt;/b&gt; Every head runs for every token; the subsystem map over heads (rte-a … rte-h) is a separate reading laid over the heads.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Nothing trains an expert to handle a topic.&lt;/b&gt; Whether experts line up with the eight subsystems is a question to measure, and on most layers the answer is weak or no.&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;&lt;b&gt;Disabling an expert&lt;/b&gt; (octoscope-cli generate --disable-expert LAYER:EXPERT) takes it out of the router&apos;s choice: the next most probable expert runs instead — the model as if that expert did not exist. Compare the two runs to see what it did for this prompt.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;真实的专家不是文章所说的子系统。&lt;/b&gt;&lt;/p&gt;&lt;p&gt;在混合专家模型（Mixtral、OLMoE、Qwen-MoE、Qwen3-MoE）中，每一层的前馈块被几个小网络——&lt;i&gt;专家&lt;/i&gt;——和一个路由器（一个线性层）取代。路由器为每个词元挑选其中几个：对所有专家做 softmax，保留概率最高的几个，按路由器的权重把它们的输出相加。这种路由是真实计算出来的，“专家”面板如实显示它：某个词元的层 × 专家、某一层的词元 × 专家，以及每个专家被选中的次数。&lt;/p&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;专家按层、按词元取代前馈块。&lt;/b&gt;第 3 层的专家 5 与第 4 层的专家 5 只是编号相同；词元在每一层都会重新路由。&lt;/li&gt;&lt;li&gt;&lt;b&gt;注意力不经过路由。&lt;/b&gt;每个注意力头对每个词元都会运行；注意力头上的子系统映射（rte-a … rte-h）是叠加在注意力头上的另一种解读。&lt;/li&gt;&lt;li&gt;&lt;b&gt;训练中没有任何东西让某个专家负责某个主题。&lt;/b&gt;专家是否与八个子系统对应，是需要测量的问题；在大多数层上答案是“很弱”或“没有”。&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;&lt;b&gt;禁用专家&lt;/b&gt;（octoscope-cli generate --disable-expert 层:专家）会把它从路由器的选择中去掉：改由概率次高的专家运行——就像这个专家不存在一样。对比两次运行，即可看出它对这个提示词做了什么。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Experts and subsystems</source>
        <translation>专家与子系统</translation>
    </message>
</context>
<context>
    <name>octo::ui::ExpertsView</name>
    <message>
        <source>Which positions the layers × experts weights come from</source>
        <translation>层 × 专家权重取自哪些位置</translation>
    </message>
    <message>
        <source>layer </source>
        <translation>层 </translation>
    </message>
    <message>
        <source>The layer of the tokens × experts strip and of the load</source>
        <translation>词元 × 专家条带与负载所用的层</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>expert</source>
        <translation>专家</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>token (prompt, then answer)</source>
        <translation>词元（先提示词，后回答）</translation>
    </message>
    <message>
        <source>Layers × experts</source>
        <translation>层 × 专家</translation>
    </message>
    <message>
        <source>Tokens × experts</source>
        <translation>词元 × 专家</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>负载</translation>
    </message>
    <message>
        <source>This model has no experts: every token runs through the same feed-forward block. The routing shown here exists in mixture-of-experts models (Mixtral, OLMoE, Qwen-MoE).</source>
        <translation>此模型没有专家：每个词元都经过同一个前馈块。这里显示的路由只存在于混合专家模型中（Mixtral、OLMoE、Qwen-MoE）。</translation>
    </message>
    <message>
        <source>Leave expert %1 of layer %2 out of the next run</source>
        <translation>下次运行中排除第 %2 层的专家 %1</translation>
    </message>
    <message>
        <source>Leave expert %1 out in every layer</source>
        <translation>在每一层中排除专家 %1</translation>
    </message>
    <message>
        <source>layer %1, shared expert: gate %2</source>
        <translation>第 %1 层，共享专家：门控 %2</translation>
    </message>
    <message>
        <source>layer %1, expert %2: weight %3</source>
        <translation>第 %1 层，专家 %2：权重 %3</translation>
    </message>
    <message>
        <source>, rank %1 of the chosen</source>
        <translation>，入选者中排第 %1</translation>
    </message>
    <message>
        <source>, not chosen</source>
        <translation>，未入选</translation>
    </message>
    <message>
        <source> (mean)</source>
        <translation>（均值）</translation>
    </message>
    <message>
        <source>; router bias %1</source>
        <translation>；路由器偏置 %1</translation>
    </message>
    <message>
        <source>token (prompt, then answer): layer %1</source>
        <translation>词元（先提示词，后回答）：第 %1 层</translation>
    </message>
    <message>
        <source>expert (layer %1)</source>
        <translation>专家（第 %1 层）</translation>
    </message>
    <message>
        <source>positions</source>
        <translation>位置数</translation>
    </message>
    <message>
        <source>Expert map: separation %1 against %2 with shuffled labels and %3 with token identity alone — the routing tells the probe set&apos;s subsystems apart beyond what the probes&apos; surface tokens give. Try prompts of your own.</source>
        <translation>专家映射：区分度 %1，打乱标签时为 %2，仅按词元身份时为 %3——路由对探针集各子系统的区分超出了探针表层词元所能给出的程度。请用你自己的提示词检验。</translation>
    </message>
    <message>
        <source>Expert map: separation %1 against %2 with shuffled labels and %3 with token identity alone — the routing does not tell the probe set&apos;s subsystems apart beyond what random weights reach; the experts metric says little about subsystems and the claims lab does not use it.</source>
        <translation>专家映射：区分度 %1，打乱标签时为 %2，仅按词元身份时为 %3——路由对探针集各子系统的区分没有超出随机权重所能达到的程度；experts 指标几乎说明不了子系统，论断实验室也不会使用它。</translation>
    </message>
    <message>
        <source>This model has no experts.</source>
        <translation>此模型没有专家。</translation>
    </message>
    <message>
        <source>No run yet: type a prompt and press Ctrl+Enter.</source>
        <translation>尚无运行：输入提示词后按 Ctrl+Enter。</translation>
    </message>
</context>
<context>
    <name>octo::ui::ExportController</name>
    <message>
        <source>Save the window as PNG</source>
        <translation>将窗口保存为 PNG</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Folder for the plot PNGs</source>
        <translation>图表 PNG 的保存文件夹</translation>
    </message>
    <message>
        <source>Cannot write into %1</source>
        <translation>无法写入文件夹 %1</translation>
    </message>
    <message>
        <source>Save run data (JSON; a CSV is written beside it)</source>
        <translation>保存运行数据（JSON；同时在旁边写入 CSV）</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>No run to export, or cannot write %1</source>
        <translation>没有可导出的运行，或无法写入 %1</translation>
    </message>
</context>
<context>
    <name>octo::ui::FileMenu</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open Model…</source>
        <translation>打开模型(&amp;O)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+O</source>
        <translation>Ctrl+Shift+O</translation>
    </message>
    <message>
        <source>Open &amp;Capture…</source>
        <translation>打开捕获(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Save Capture…</source>
        <translation>保存捕获(&amp;S)…</translation>
    </message>
    <message>
        <source>Export &amp;Bug Report…</source>
        <translation>导出错误报告(&amp;B)…</translation>
    </message>
    <message>
        <source>Export Scree&amp;nshot…</source>
        <translation>导出截图(&amp;N)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+S</source>
        <translation>Ctrl+Shift+S</translation>
    </message>
    <message>
        <source>Export &amp;Plots…</source>
        <translation>导出图表(&amp;P)…</translation>
    </message>
    <message>
        <source>Export Run &amp;Data…</source>
        <translation>导出运行数据(&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Open Con&amp;versation…</source>
        <translation>打开对话(&amp;V)…</translation>
    </message>
    <message>
        <source>Save Conversa&amp;tion…</source>
        <translation>保存对话(&amp;T)…</translation>
    </message>
    <message>
        <source>E&amp;xport Session…</source>
        <translation>导出会话(&amp;X)…</translation>
    </message>
    <message>
        <source>&amp;Import Session…</source>
        <translation>导入会话(&amp;I)…</translation>
    </message>
</context>
<context>
    <name>octo::ui::FirstStartHint</name>
    <message>
        <source>&lt;b&gt;octet&lt;/b&gt;, the built-in model, is a small teaching model trained on a synthetic task set, with eight head groups (rte-a … rte-h). It answers prompts like those in Help → Examples (arithmetic such as “What is 20% of 300?”, entities, relations, logic, code, style, formats, refusals); it is &lt;i&gt;not&lt;/i&gt; a general chat model. For a real one, load a GGUF model (File → Open Model…).</source>
        <translation>内置模型 &lt;b&gt;octet&lt;/b&gt; 是一个在合成任务集上训练的小型教学模型，有八个注意力头组（rte-a … rte-h）。它能回答“帮助 → 示例”里那类提示词（例如 “What is 20% of 300?” 这样的算术，以及实体、关系、逻辑、代码、风格、格式、拒绝有害请求）；它&lt;i&gt;不是&lt;/i&gt;通用聊天模型。要用真正的模型，请加载 GGUF 模型（文件 → 打开模型…）。</translation>
    </message>
    <message>
        <source>E&amp;xamples…</source>
        <translation>示例(&amp;X)…</translation>
    </message>
    <message>
        <source>Prompts octet answers (Help → Examples…)</source>
        <translation>octet 能回答的提示词（帮助 → 示例…）</translation>
    </message>
    <message>
        <source>Dismiss this note; it will not be shown again</source>
        <translation>关闭此提示，以后不再显示</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭提示</translation>
    </message>
</context>
<context>
    <name>octo::ui::HeadHeatmapView</name>
    <message>
        <source>Which positions the layer × head values come from</source>
        <translation>层 × 注意力头数值取自哪些位置</translation>
    </message>
    <message>
        <source>head (subsystem)</source>
        <translation>注意力头（子系统）</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>DLA (logits)</source>
        <translation>DLA（logit）</translation>
    </message>
    <message>
        <source>gate</source>
        <translation>门控</translation>
    </message>
    <message>
        <source>‖W_h z_h‖</source>
        <translation>‖W_h z_h‖</translation>
    </message>
    <message>
        <source>layer (w%1: sliding window of %1 positions)</source>
        <translation>层（w%1：%1 个位置的滑动窗口）</translation>
    </message>
    <message>
        <source>token %1 “%2”</source>
        <translation>词元 %1“%2”</translation>
    </message>
    <message>
        <source>layer %1, head %2%3
%4
%5 = %6</source>
        <translation>第 %1 层，注意力头 %2%3
%4
%5 = %6</translation>
    </message>
    <message>
        <source>No run yet: type a prompt and press Ctrl+Enter.</source>
        <translation>尚无运行：输入提示词后按 Ctrl+Enter。</translation>
    </message>
    <message>
        <source>No positions in this scope yet.</source>
        <translation>此范围内尚无位置。</translation>
    </message>
    <message>
        <source>DLA was not recorded for this run. Tick “DLA” in the prompt panel and run again.</source>
        <translation>本次运行未记录 DLA。在提示词面板中勾选“DLA”后重新运行。</translation>
    </message>
    <message>
        <source>This model has no router gates to show per head. Colour by norm share instead.</source>
        <translation>此模型没有可按注意力头显示的路由门控。请改用范数占比着色。</translation>
    </message>
    <message>
        <source>Per-head values were not recorded for this run.</source>
        <translation>本次运行未记录每个注意力头的值。</translation>
    </message>
</context>
<context>
    <name>octo::ui::HelpMenu</name>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Documentation</source>
        <translation>文档(&amp;D)</translation>
    </message>
    <message>
        <source>E&amp;xamples…</source>
        <translation>示例(&amp;X)…</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts…</source>
        <translation>键盘快捷键(&amp;K)…</translation>
    </message>
    <message>
        <source>&amp;Experts and Subsystems…</source>
        <translation>专家与子系统(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;About Octoscope</source>
        <translation>关于 Octoscope(&amp;A)</translation>
    </message>
</context>
<context>
    <name>octo::ui::HistoryPanel</name>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Select two runs (Ctrl+click) to compare them.</source>
        <translation>选择两次运行（Ctrl+单击）进行对比。</translation>
    </message>
    <message>
        <source>Run %1 is still running.</source>
        <translation>运行 %1 仍在进行中。</translation>
    </message>
    <message>
        <source>Run %1 failed: it has no answer to compare.</source>
        <translation>运行 %1 失败：没有可对比的回答。</translation>
    </message>
    <message>
        <source>Show the two selected runs side by side in the A/B compare dock (A: the older).</source>
        <translation>在 A/B 对比面板中并排显示所选的两次运行（A：较早的一次）。</translation>
    </message>
    <message>
        <source>Run %1 was made with no model: it has nothing to compare.</source>
        <translation>运行 %1 没有使用任何模型：没有可比较的内容。</translation>
    </message>
    <message>
        <source>Filter: prompt, output, model…</source>
        <translation>筛选：提示词、输出、模型…</translation>
    </message>
    <message>
        <source>Rename Run</source>
        <translation>重命名运行</translation>
    </message>
    <message>
        <source>A name for %1 (empty: none):</source>
        <translation>%1 的名称（留空：无）：</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <source>Pin (keep when the history is full)</source>
        <translation>固定（历史记录满时保留）</translation>
    </message>
    <message>
        <source>Remove from History</source>
        <translation>从历史记录中移除</translation>
    </message>
</context>
<context>
    <name>octo::ui::InternalsNote</name>
    <message>
        <source>This run came from %1, a server that gives outputs only. This view needs the model&apos;s internals: run the prompt on a local model or on an Octoscope server (octoscope-cli serve).</source>
        <translation>这次运行来自 %1，该服务器只提供输出。此视图需要模型的内部数据：请在本地模型或 Octoscope 服务器（octoscope-cli serve）上运行提示词。</translation>
    </message>
</context>
<context>
    <name>octo::ui::KvBlockGrid</name>
    <message>
        <source>KV pool blocks: dark blue used, orange shared by several sequences, light blue cached prefix (idle, reusable), grey free</source>
        <translation>KV 池块：深蓝为已用，橙色为多个序列共享，浅蓝为缓存的前缀（空闲、可复用），灰色为空闲</translation>
    </message>
</context>
<context>
    <name>octo::ui::KvCacheMenu</name>
    <message>
        <source>&amp;KV Cache</source>
        <translation>KV 缓存(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Default (F16 at reference precision, F32 at exact)</source>
        <translation>默认(&amp;D)（参考精度为 F16，精确精度为 F32）</translation>
    </message>
    <message>
        <source>F&amp;32 keys and values</source>
        <translation>F32 键和值(&amp;3)</translation>
    </message>
    <message>
        <source>F&amp;16 keys and values (half the memory)</source>
        <translation>F16 键和值(&amp;1)（内存减半）</translation>
    </message>
    <message>
        <source>Q&amp;8_0 keys and values (about a quarter; CPU)</source>
        <translation>Q8_0 键和值(&amp;8)（约四分之一；仅 CPU）</translation>
    </message>
    <message>
        <source>Q&amp;4_0 keys and values (about an eighth; CPU)</source>
        <translation>Q4_0 键和值(&amp;4)（约八分之一；仅 CPU）</translation>
    </message>
</context>
<context>
    <name>octo::ui::KvView</name>
    <message>
        <source>pool operation</source>
        <translation>池操作</translation>
    </message>
    <message>
        <source>blocks</source>
        <translation>块</translation>
    </message>
    <message>
        <source>used</source>
        <translation>已用</translation>
    </message>
    <message>
        <source>cached</source>
        <translation>已缓存</translation>
    </message>
    <message>
        <source>shared</source>
        <translation>共享</translation>
    </message>
    <message>
        <source>%1 blocks of %2 tokens, %3 allocated once</source>
        <translation>%1 个块，每块 %2 个词元，一次性分配 %3</translation>
    </message>
    <message>
        <source>%1 of %2 blocks used (%3), %4 cached, %5 free; %6 evictions. Last run: %7 tokens reused, %8 evaluated.</source>
        <translation>已用 %1/%2 个块（%3），已缓存 %4，空闲 %5；驱逐 %6 次。上次运行：复用 %7 个词元，计算 %8 个。</translation>
    </message>
    <message>
        <source>bytes not recorded</source>
        <translation>未记录字节数</translation>
    </message>
    <message>
        <source>operation %1: %2 used, %3 cached, %4 shared</source>
        <translation>操作 %1：已用 %2，缓存 %3，共享 %4</translation>
    </message>
    <message>
        <source>No model loaded.</source>
        <translation>未加载模型。</translation>
    </message>
    <message>
        <source>The pool&apos;s history appears when the run ends.</source>
        <translation>运行结束后显示池的历史。</translation>
    </message>
    <message>
        <source>No run yet: the pool&apos;s history appears after one.</source>
        <translation>尚无运行：运行后显示池的历史。</translation>
    </message>
    <message>
        <source>This run recorded no pool operations.</source>
        <translation>本次运行没有记录池操作。</translation>
    </message>
    <message>
        <source> Latent cache (multi-head latent attention): per position and layer one row of %1 values, the RoPE key part and the latent every head&apos;s key and value come from, as %2: %3 a block.</source>
        <translation> 潜在缓存（多头潜在注意力）：每个位置每层一行 %1 个值，即 RoPE 键部分和各头的键与值由之而来的潜在向量，存为 %2：每块 %3。</translation>
    </message>
    <message>
        <source> Keys %1, values %2: %3 a block.</source>
        <translation> 键 %1，值 %2：每块 %3。</translation>
    </message>
    <message>
        <source>This server does not report its KV pool.</source>
        <translation>此服务器不报告它的 KV 池。</translation>
    </message>
    <message>
        <source>The server&apos;s KV pool: its totals arrive with each run&apos;s answer.</source>
        <translation>服务器的 KV 池：每次运行的回答会带来它的总数。</translation>
    </message>
    <message>
        <source>The server reports its pool&apos;s totals only, not the history of its operations.</source>
        <translation>服务器只报告其 KV 池的总数，不报告操作历史。</translation>
    </message>
    <message>
        <source>The server&apos;s pool after this run: %1 of %2 blocks used, %3 cached, %4 free (%5 tokens a block). Last run: %6 tokens reused, %7 evaluated.</source>
        <translation>本次运行后服务器的 KV 池：%2 个块中已用 %1 个，缓存 %3 个，空闲 %4 个（每块 %5 个 token）。上次运行：复用 %6 个 token，计算 %7 个。</translation>
    </message>
</context>
<context>
    <name>octo::ui::LanguageMenu</name>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;System (%1)</source>
        <translation>跟随系统(&amp;S)（%1）</translation>
    </message>
</context>
<context>
    <name>octo::ui::LatencyView</name>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>Band thresholds. Defaults are the article&apos;s claimed bands for GPT-4 (under 250 ms: cache hit; 250–800 ms: standard; over 800 ms: degraded) — claims, not measurements.</source>
        <translation>区间阈值。默认值是文章对 GPT-4 声称的区间（低于 250 毫秒：缓存命中；250–800 毫秒：标准；高于 800 毫秒：降级）——只是声称，并非测量结果。</translation>
    </message>
    <message>
        <source>generated token</source>
        <translation>生成的词元</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>ms per token</source>
        <translation>每词元毫秒数</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元数</translation>
    </message>
    <message>
        <source>Bands (article&apos;s):</source>
        <translation>区间（文章所述）：</translation>
    </message>
    <message>
        <source>running: %1 tokens</source>
        <translation>运行中：%1 个词元</translation>
    </message>
    <message>
        <source>time to first token %1 ms (prefill %2 ms for %3 evaluated prompt tokens); decode %4 tokens/s</source>
        <translation>首词元时间 %1 毫秒（预填充 %3 个提示词元用时 %2 毫秒）；解码 %4 词元/秒</translation>
    </message>
    <message>
        <source>time to first token %1 ms, seen from here (network included) from %2; then %3 tokens/s as they arrived</source>
        <translation>首个词元用时 %1 毫秒（从本机观测，含网络），来自 %2；之后按到达计 %3 词元/秒</translation>
    </message>
    <message>
        <source>generated token %1 “%2”: %3 ms</source>
        <translation>生成的词元 %1“%2”：%3 毫秒</translation>
    </message>
    <message>
        <source>No generated tokens yet.</source>
        <translation>尚无生成的词元。</translation>
    </message>
    <message>
        <source>No run yet: the time of every generated token appears here.</source>
        <translation>尚无运行：每个生成词元的耗时将显示在这里。</translation>
    </message>
</context>
<context>
    <name>octo::ui::LensGroupsPlot</name>
    <message>
        <source>logits toward the token</source>
        <translation>朝向该词元的 logit</translation>
    </message>
    <message>
        <source>layer %1, %2: %3 logits toward the token, written directly by the group&apos;s heads</source>
        <translation>第 %1 层，%2：该组注意力头直接写入、朝向该词元的 %3 logit</translation>
    </message>
    <message>
        <source>Each head group&apos;s direct part needs the run&apos;s DLA: tick “DLA” in the prompt panel and run again.</source>
        <translation>各注意力头组的直接贡献需要本次运行的 DLA：请在提示词面板中勾选“DLA”后重新运行。</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>head group: direct part toward “%1”</source>
        <translation>注意力头组：朝向“%1”的直接贡献</translation>
    </message>
</context>
<context>
    <name>octo::ui::LogPanel</name>
    <message>
        <source>C&amp;lear</source>
        <translation>清除(&amp;L)</translation>
    </message>
    <message>
        <source>Open Lo&amp;g Folder</source>
        <translation>打开日志文件夹(&amp;G)</translation>
    </message>
</context>
<context>
    <name>octo::ui::LogitLensView</name>
    <message>
        <source>Per la&amp;yer</source>
        <translation>每层(&amp;Y)</translation>
    </message>
    <message>
        <source>Tokens shown per layer</source>
        <translation>每层显示的词元数</translation>
    </message>
    <message>
        <source>Run a prompt and select a token: each layer&apos;s prediction of it appears here.</source>
        <translation>运行提示词并选择一个词元：各层对它的预测显示在这里。</translation>
    </message>
    <message>
        <source>The first token has no position before it that predicts it: select a later one.</source>
        <translation>第一个词元之前没有预测它的位置：请选择后面的词元。</translation>
    </message>
    <message>
        <source>This run was opened from a capture: re-run it (Run → Re-run Capture) to see its logit lens.</source>
        <translation>此运行来自捕获文件：重新运行它（运行 → 重新运行捕获）以查看其逻辑透镜。</translation>
    </message>
    <message>
        <source>This run was made on a server: the logit lens reads the model&apos;s layers, which are not here.</source>
        <translation>此运行在服务器上完成：逻辑透镜需要读取模型的各层，而模型不在本机。</translation>
    </message>
    <message>
        <source>The logit lens is computed when the run has finished.</source>
        <translation>运行结束后才计算逻辑透镜。</translation>
    </message>
    <message>
        <source>This run was made with %1: open that model again to see its logit lens.</source>
        <translation>此运行使用的是 %1：请重新打开该模型以查看其逻辑透镜。</translation>
    </message>
    <message>
        <source>The logit lens could not be computed: %1</source>
        <translation>无法计算逻辑透镜：%1</translation>
    </message>
    <message>
        <source>Computing the logit lens at position %1…</source>
        <translation>正在计算位置 %1 的逻辑透镜…</translation>
    </message>
    <message>
        <source>How each layer predicted %1 (token %2) at position %3: the residual after the layer through the final norm and output matrix. The last layer is the model&apos;s own output.</source>
        <translation>各层在位置 %3 对 %1（词元 %2）的预测：该层之后的残差流经最终归一化和输出矩阵。最后一层即模型自身的输出。</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Rank of %1</source>
        <translation>%1 的排名</translation>
    </message>
    <message>
        <source>Top %1</source>
        <translation>第 %1 名</translation>
    </message>
    <message>
        <source>%1 is this layer&apos;s choice number %2, with probability %3</source>
        <translation>%1 是该层的第 %2 选择，概率为 %3</translation>
    </message>
    <message>
        <source>Under the table: how much each head group of each layer wrote toward the token directly (its heads&apos; direct logit attributions; needs the run&apos;s DLA)</source>
        <translation>表格下方：每层各注意力头组直接写入、朝向该词元的量（其注意力头的直接 logit 归因；需要本次运行的 DLA）</translation>
    </message>
    <message>
        <source>By head group</source>
        <translation>按注意力头组</translation>
    </message>
</context>
<context>
    <name>octo::ui::MainWindow</name>
    <message>
        <source>Octoscope</source>
        <translation>Octoscope</translation>
    </message>
</context>
<context>
    <name>octo::ui::ModelController</name>
    <message>
        <source>Loading %1 — needs about %2 of memory (weights, KV pool, activations)…</source>
        <translation>正在加载 %1——约需 %2 内存（权重、KV 池、激活值）…</translation>
    </message>
    <message>
        <source>Cannot open the model</source>
        <translation>无法打开模型</translation>
    </message>
    <message>
        <source>%1

The previous model stays loaded.</source>
        <translation>%1

之前的模型仍保持加载。</translation>
    </message>
    <message>
        <source>Cannot open the model: %1</source>
        <translation>无法打开模型：%1</translation>
    </message>
    <message>
        <source>Calibration failed: %1</source>
        <translation>校准失败：%1</translation>
    </message>
    <message>
        <source>Loading model</source>
        <translation>正在加载模型</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>Load a model first</source>
        <translation>请先加载模型</translation>
    </message>
    <message>
        <source>Calibrating head map</source>
        <translation>正在校准注意力头映射</translation>
    </message>
    <message>
        <source>Measuring every head on the labelled probe set…</source>
        <translation>正在用带标签的探针集测量每个注意力头…</translation>
    </message>
    <message>
        <source>This model has no experts to calibrate (it is not a mixture of experts)</source>
        <translation>此模型没有可校准的专家（它不是混合专家模型）</translation>
    </message>
    <message>
        <source>Calibrating experts</source>
        <translation>正在校准专家</translation>
    </message>
    <message>
        <source>Routing the labelled probe set through every expert…</source>
        <translation>正在让带标签的探针集经过每个专家的路由…</translation>
    </message>
    <message>
        <source>Open a GGUF model</source>
        <translation>打开 GGUF 模型</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>octo::ui::ModelMenu</name>
    <message>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source>Connect to &amp;Server…</source>
        <translation>连接服务器(&amp;S)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+K</source>
        <translation>Ctrl+Shift+K</translation>
    </message>
    <message>
        <source>&amp;Disconnect from Server</source>
        <translation>断开服务器(&amp;D)</translation>
    </message>
    <message>
        <source>Back to the last model file opened here (else the built-in model)</source>
        <translation>回到此前打开的最后一个模型文件（没有则用内置模型）</translation>
    </message>
    <message>
        <source>&amp;Calibrate Head Map…</source>
        <translation>校准注意力头映射(&amp;C)…</translation>
    </message>
    <message>
        <source>Calibrate &amp;Experts…</source>
        <translation>校准专家(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Measure the Article&apos;s Claims</source>
        <translation>测量文章的论断(&amp;M)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+M</source>
        <translation>Ctrl+Shift+M</translation>
    </message>
    <message>
        <source>Server&apos;s M&amp;odels</source>
        <translation>服务器的模型(&amp;O)</translation>
    </message>
    <message>
        <source>Calibration needs the model file: run octoscope-cli calibrate where the server runs</source>
        <translation>校准需要模型文件：请在服务器所在的机器上运行 octoscope-cli calibrate</translation>
    </message>
</context>
<context>
    <name>octo::ui::Plot</name>
    <message>
        <source>No data yet</source>
        <translation>尚无数据</translation>
    </message>
    <message>
        <source>Click, then wheel: zoom (or Ctrl+wheel) · drag: pan · double-click or R: reset view</source>
        <translation>先单击，再用滚轮缩放（或 Ctrl+滚轮）· 拖动：平移 · 双击或 R：重置视图</translation>
    </message>
    <message>
        <source>&amp;Reset View</source>
        <translation>重置视图(&amp;R)</translation>
    </message>
</context>
<context>
    <name>octo::ui::PresenterPanel</name>
    <message>
        <source>Select a token (timeline, or click it), then write what to say about it here.</source>
        <translation>选择一个词元（用时间轴，或点击它），然后在此写下关于它的讲解。</translation>
    </message>
    <message>
        <source>Undo Note Edit</source>
        <translation>撤销备注编辑</translation>
    </message>
    <message>
        <source>Redo Note Edit</source>
        <translation>重做备注编辑</translation>
    </message>
    <message>
        <source>Notes in this run:</source>
        <translation>本次运行的备注：</translation>
    </message>
    <message>
        <source>No run shown.</source>
        <translation>未显示运行。</translation>
    </message>
    <message>
        <source>Position %1 (%2), %3: “%4” (id %5)</source>
        <translation>位置 %1（%2），%3：“%4”（id %5）</translation>
    </message>
    <message>
        <source>1 token</source>
        <translation>1 个词元</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个词元</translation>
    </message>
    <message>
        <source>generated</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>, p = %1</source>
        <translation>，p = %1</translation>
    </message>
    <message>
        <source>, strongest %1 (%2)</source>
        <translation>，最强 %1（%2）</translation>
    </message>
    <message>
        <source>%1 “%2”: %3</source>
        <translation>%1 “%2”：%3</translation>
    </message>
    <message>
        <source>No tokens yet.</source>
        <translation>尚无词元。</translation>
    </message>
    <message>
        <source> — the last token; step with Alt+Left / Alt+Right</source>
        <translation> — 最后一个词元；用 Alt+Left / Alt+Right 逐个切换</translation>
    </message>
</context>
<context>
    <name>octo::ui::PromptPanel</name>
    <message>
        <source>Prompt — Ctrl+Enter runs, Esc cancels</source>
        <translation>提示词——Ctrl+Enter 运行，Esc 取消</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>&amp;Chat</source>
        <translation>对话(&amp;C)</translation>
    </message>
    <message>
        <source>Send system + user turns through the model&apos;s chat template</source>
        <translation>通过模型的对话模板发送系统消息和用户消息</translation>
    </message>
    <message>
        <source>System message (chat mode)</source>
        <translation>系统消息（对话模式）</translation>
    </message>
    <message>
        <source>Reasoning: low</source>
        <translation>推理：低</translation>
    </message>
    <message>
        <source>Reasoning: medium</source>
        <translation>推理：中</translation>
    </message>
    <message>
        <source>Reasoning: high</source>
        <translation>推理：高</translation>
    </message>
    <message>
        <source>How much a gpt-oss model reasons before its final answer (the level its chat template writes into the system message; chat mode)</source>
        <translation>gpt-oss 模型在给出最终回答前推理的程度（其聊天模板写入系统消息的级别；聊天模式）</translation>
    </message>
    <message>
        <source>0: greedy</source>
        <translation>0：贪心解码</translation>
    </message>
    <message>
        <source>&amp;DLA</source>
        <translation>&amp;DLA</translation>
    </message>
    <message>
        <source>Also compute direct logit attribution (one more projection per layer)</source>
        <translation>同时计算直接 logit 归因（每层多一次投影）</translation>
    </message>
    <message>
        <source>Record attention weights for the attention view (runs that record them do not reuse cached prompt prefixes)</source>
        <translation>为注意力视图记录注意力权重（记录注意力的运行不复用已缓存的提示词前缀）</translation>
    </message>
    <message>
        <source>Run the prompt (Ctrl+Enter)</source>
        <translation>运行提示词（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the run (Esc)</source>
        <translation>停止运行（Esc）</translation>
    </message>
    <message>
        <source>Max tokens</source>
        <translation>最大词元数</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Model default: %1</source>
        <translation>模型默认：%1</translation>
    </message>
    <message>
        <source>Model default</source>
        <translation>模型默认</translation>
    </message>
    <message>
        <source>How matrix products with quantised weights treat the activations.
Reference: the activations are quantised as llama.cpp does (8-bit blocks; F16/BF16 rounding for F16/BF16 weights), so the tokens match what llama.cpp-based tools produce.
Exact: the activations stay 32-bit floats (the weights as stored times the activations as computed).
F32 weights are multiplied in float either way.
This model&apos;s default: %1</source>
        <translation>量化权重的矩阵乘法如何处理激活值。
参考：像 llama.cpp 那样把激活值量化（8 位分块；F16/BF16 权重则舍入为 F16/BF16），因此生成的词元与基于 llama.cpp 的工具一致。
精确：激活值保持 32 位浮点（按存储的权重乘以按计算所得的激活值）。
F32 权重无论哪种都以浮点相乘。
此模型的默认值：%1</translation>
    </message>
    <message>
        <source>no model loaded</source>
        <translation>未加载模型</translation>
    </message>
    <message>
        <source>A server sends no attention weights: runs on it record none. Your choice returns with a local model.</source>
        <translation>服务器不发送注意力权重：在其上的运行不会记录注意力。加载本地模型后会恢复你的选择。</translation>
    </message>
    <message>
        <source>Record a&amp;ttention</source>
        <translation>记录注意力(&amp;T)</translation>
    </message>
    <message>
        <source>Ru&amp;n</source>
        <translation>运行(&amp;N)</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Free text</source>
        <translation>自由文本</translation>
    </message>
    <message>
        <source>JSON object</source>
        <translation>JSON 对象</translation>
    </message>
    <message>
        <source>JSON Schema…</source>
        <translation>JSON Schema…</translation>
    </message>
    <message>
        <source>Grammar (GBNF)…</source>
        <translation>语法 (GBNF)…</translation>
    </message>
    <message>
        <source>Structured output: constrain every answer to JSON, a JSON Schema or a grammar. Each token then records how much probability the constraint removed (docs/structured-output.md)</source>
        <translation>结构化输出：将每个回答约束为 JSON、JSON Schema 或语法。每个词元随后记录约束移除了多少概率（docs/structured-output.md）</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <source>Choose JSON Schema or Grammar to edit their text</source>
        <translation>选择 JSON Schema 或语法以编辑其文本</translation>
    </message>
</context>
<context>
    <name>octo::ui::QuantReportController</name>
    <message>
        <source>A report is running: wait for it or cancel it.</source>
        <translation>报告正在运行：请等待或取消。</translation>
    </message>
    <message>
        <source>Open model A first: the report compares the loaded model with another file of it.</source>
        <translation>请先打开模型 A：报告将已加载的模型与其另一个文件进行比较。</translation>
    </message>
    <message>
        <source>The loaded model is a server&apos;s: the report runs two model files here.</source>
        <translation>已加载的模型来自服务器：报告需要在本机运行两个模型文件。</translation>
    </message>
    <message>
        <source>Choose model B, another file of the loaded model.</source>
        <translation>请选择模型 B，即已加载模型的另一个文件。</translation>
    </message>
    <message>
        <source>Write at least one prompt, one a line.</source>
        <translation>请至少写一个提示词，每行一个。</translation>
    </message>
    <message>
        <source>There is no report to save yet.</source>
        <translation>还没有可保存的报告。</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
</context>
<context>
    <name>octo::ui::QuantReportDialog</name>
    <message>
        <source>Quantisation Report</source>
        <translation>量化报告</translation>
    </message>
    <message>
        <source>Model A (loaded):</source>
        <translation>模型 A（已加载）：</translation>
    </message>
    <message>
        <source>Another file of the same model, e.g. its Q4_K_M beside a Q8_0</source>
        <translation>同一模型的另一个文件，例如 Q8_0 之外的 Q4_K_M</translation>
    </message>
    <message>
        <source>Model &amp;B:</source>
        <translation>模型 B(&amp;B)：</translation>
    </message>
    <message>
        <source>One prompt a line</source>
        <translation>每行一个提示词</translation>
    </message>
    <message>
        <source>&amp;Prompts:</source>
        <translation>提示词(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Tokens per answer:</source>
        <translation>每个回答的词元数(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Run Report</source>
        <translation>运行报告(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Cancel Report</source>
        <translation>取消报告(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Save JSON…</source>
        <translation>保存 JSON(&amp;S)…</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>Answers part</source>
        <translation>回答分歧处</translation>
    </message>
    <message>
        <source>Mean KL</source>
        <translation>平均 KL</translation>
    </message>
    <message>
        <source>Max KL</source>
        <translation>最大 KL</translation>
    </message>
    <message>
        <source>Top agree</source>
        <translation>首选一致</translation>
    </message>
    <message>
        <source>Subsystem moved most</source>
        <translation>变化最大的子系统</translation>
    </message>
    <message>
        <source>A&apos;s answer</source>
        <translation>A 的回答</translation>
    </message>
    <message>
        <source>B&apos;s answer</source>
        <translation>B 的回答</translation>
    </message>
    <message>
        <source>mean share B − A (%)</source>
        <translation>平均占比 B − A (%)</translation>
    </message>
    <message>
        <source>Model B</source>
        <translation>模型 B</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save Report</source>
        <translation>保存报告</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>已保存 %1。</translation>
    </message>
    <message>
        <source>none: open a model first</source>
        <translation>无：请先打开一个模型</translation>
    </message>
    <message>
        <source>Loading model B…</source>
        <translation>正在加载模型 B…</translation>
    </message>
    <message>
        <source>Prompt %1 of %2…</source>
        <translation>第 %1 个提示词，共 %2 个…</translation>
    </message>
    <message>
        <source>Runs the prompts on both models (greedy), then feeds B the answer A gave, token by token, and measures KL(A ‖ B) of the next-token distributions at every step.</source>
        <translation>在两个模型上运行这些提示词（贪心解码），然后将 A 的回答逐个词元输入 B，并在每一步测量下一词元分布的 KL(A ‖ B)。</translation>
    </message>
    <message>
        <source>No report yet.</source>
        <translation>还没有报告。</translation>
    </message>
    <message>
        <source>, largest %1 (prompt %2, step %3)</source>
        <translation>，最大 %1（提示词 %2，第 %3 步）</translation>
    </message>
    <message>
        <source>A: %1 · B: %2
%3 of %4 prompts answered the same. Over %5 steps (B fed A&apos;s answer): mean KL %6%7; the most probable tokens agree at %8 %.</source>
        <translation>A：%1 · B：%2
%4 个提示词中有 %3 个回答相同。在 %5 步中（B 输入 A 的回答）：平均 KL %6%7；最可能的词元一致率为 %8 %。</translation>
    </message>
    <message>
        <source>at token %1</source>
        <translation>在词元 %1</translation>
    </message>
    <message>
        <source>same answer</source>
        <translation>回答相同</translation>
    </message>
    <message>
        <source>Subsystem shares were not measured.</source>
        <translation>未测量子系统占比。</translation>
    </message>
    <message>
        <source>%1: mean share B − A = %2 %</source>
        <translation>%1：平均占比 B − A = %2 %</translation>
    </message>
    <message>
        <source>Bro&amp;wse…</source>
        <translation>浏览(&amp;W)…</translation>
    </message>
    <message>
        <source> Expert routing where the context is the same: %1 % of the chosen experts the same.</source>
        <translation> 上下文相同处的专家路由：%1 % 的所选专家相同。</translation>
    </message>
</context>
<context>
    <name>octo::ui::RecentModelsMenu</name>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>%1 (built-in)</source>
        <translation>%1（内置）</translation>
    </message>
</context>
<context>
    <name>octo::ui::RouterPanel</name>
    <message>
        <source>Router: no prompt</source>
        <translation>路由器：没有提示词</translation>
    </message>
    <message>
        <source>route</source>
        <translation>路由</translation>
    </message>
    <message>
        <source>stage 1 (cosine)</source>
        <translation>第一阶段（余弦）</translation>
    </message>
    <message>
        <source>stage 2 (features)</source>
        <translation>第二阶段（特征）</translation>
    </message>
    <message>
        <source>score</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>This route is &amp;wrong…</source>
        <translation>此路由有误(&amp;W)…</translation>
    </message>
    <message>
        <source>Record the right subsystem for this prompt in your probe file and refit the router</source>
        <translation>在你的探针文件中记录此提示词的正确子系统，并重新拟合路由器</translation>
    </message>
    <message>
        <source>Router unavailable: %1</source>
        <translation>路由器不可用：%1</translation>
    </message>
    <message>
        <source>Route: %1 %2</source>
        <translation>路由：%1 %2</translation>
    </message>
    <message>
        <source>Route (the article&apos;s subsystems): %1 %2</source>
        <translation>路由（文章的子系统）：%1 %2</translation>
    </message>
    <message>
        <source>The router sorts prompts into the article&apos;s eight subsystems. This model&apos;s head groups carry no such meaning until its head map is calibrated (Model → Calibrate Head Map).</source>
        <translation>路由器把提示词分到文章所说的八个子系统。在校准注意力头映射之前（模型 → 校准注意力头映射），此模型的注意力头分组没有这种含义。</translation>
    </message>
    <message>
        <source>No feature fired.</source>
        <translation>没有触发任何特征。</translation>
    </message>
</context>
<context>
    <name>octo::ui::RunHistoryModel</name>
    <message>
        <source>capture %1</source>
        <translation>捕获 %1</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>norms</source>
        <translation>范数</translation>
    </message>
    <message>
        <source>relative</source>
        <translation>相对值</translation>
    </message>
    <message>
        <source>DLA</source>
        <translation>DLA</translation>
    </message>
    <message>
        <source>gates</source>
        <translation>门控</translation>
    </message>
    <message>
        <source>experts</source>
        <translation>专家</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>router probabilities</source>
        <translation>路由器概率</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1 off (%2)</source>
        <translation>%1 关闭（%2）</translation>
    </message>
    <message>
        <source>experts off: %1</source>
        <translation>排除的专家：%1</translation>
    </message>
    <message>
        <source>A of pair %1</source>
        <translation>第 %1 对的 A</translation>
    </message>
    <message>
        <source>B of pair %1</source>
        <translation>第 %1 对的 B</translation>
    </message>
    <message>
        <source>sample %1 of %2 (consistency %3)</source>
        <translation>第 %1/%2 个样本（一致性运行 %3）</translation>
    </message>
    <message>
        <source>Precision: %1</source>
        <translation>精度：%1</translation>
    </message>
    <message>
        <source>Ran on %1 (%2)</source>
        <translation>运行于 %1（%2）</translation>
    </message>
    <message>
        <source>B changes: %1</source>
        <translation>B 的改动：%1</translation>
    </message>
    <message>
        <source>%1 — 1 token generated</source>
        <translation>%1 — 生成了 1 个词元</translation>
    </message>
    <message>
        <source>%1 — %2 tokens generated</source>
        <translation>%1 — 生成了 %2 个词元</translation>
    </message>
    <message>
        <source>The run&apos;s number, or the capture file it was opened from</source>
        <translation>运行编号，或打开它的捕获文件</translation>
    </message>
    <message>
        <source>The A/B pair or consistency run it was submitted in</source>
        <translation>提交时所属的 A/B 对或一致性运行</translation>
    </message>
    <message>
        <source>The prompt as typed</source>
        <translation>输入的提示词</translation>
    </message>
    <message>
        <source>The generated text</source>
        <translation>生成的文本</translation>
    </message>
    <message>
        <source>Why generation stopped (or: running, failed)</source>
        <translation>生成停止的原因（或：运行中、失败）</translation>
    </message>
    <message>
        <source>Subsystems and experts switched off, with the ablation mode</source>
        <translation>关闭的子系统和专家，以及消融方式</translation>
    </message>
    <message>
        <source>What the run recorded beyond its tokens</source>
        <translation>本次运行在词元之外记录的内容</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Set</source>
        <translation>组</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Stop reason</source>
        <translation>停止原因</translation>
    </message>
    <message>
        <source>Switches</source>
        <translation>开关</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>已测量</translation>
    </message>
    <message>
        <source>turn %1 of conversation %2</source>
        <translation>对话 %2 的第 %1 回合</translation>
    </message>
    <message>
        <source>%1; KV %2/%3</source>
        <translation>%1；KV %2/%3</translation>
    </message>
    <message>
        <source>The model file it ran on (or the server&apos;s model)</source>
        <translation>运行所用的模型文件（或服务器的模型）</translation>
    </message>
    <message>
        <source>How its products treated activations, and how its KV cache stored keys and values</source>
        <translation>矩阵乘法如何处理激活值，以及 KV 缓存如何存储键和值</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>server %1</source>
        <translation>服务器 %1</translation>
    </message>
    <message>
        <source>What computed it: this program&apos;s backend (CPU or CUDA), or the server it ran on</source>
        <translation>由什么计算：本程序的后端（CPU 或 CUDA），或运行它的服务器</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
</context>
<context>
    <name>octo::ui::RunMenu</name>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Run Prompt</source>
        <translation>运行提示词(&amp;R)</translation>
    </message>
    <message>
        <source>Ctrl+Return</source>
        <translation>Ctrl+Return</translation>
    </message>
    <message>
        <source>R&amp;erun with Switches</source>
        <translation>按开关重新运行(&amp;E)</translation>
    </message>
    <message>
        <source>Ctrl+R</source>
        <translation>Ctrl+R</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>Re-run Ca&amp;pture</source>
        <translation>重新运行捕获(&amp;P)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+R</source>
        <translation>Ctrl+Shift+R</translation>
    </message>
    <message>
        <source>A/B Compare &amp;with Shown Run</source>
        <translation>与当前显示的运行做 A/B 对比(&amp;W)</translation>
    </message>
    <message>
        <source>Ctrl+B</source>
        <translation>Ctrl+B</translation>
    </message>
    <message>
        <source>&amp;Quantisation Report…</source>
        <translation>量化报告(&amp;Q)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+Q</source>
        <translation>Ctrl+Shift+Q</translation>
    </message>
</context>
<context>
    <name>octo::ui::RunStore</name>
    <message>
        <source>Head map calibrated: separation %1 on dev (null %2, chance 0.125); kept for this model file. Active map: %3.</source>
        <translation>注意力头映射已校准：开发集上的区分度 %1（零假设 %2，随机 0.125）；已为此模型文件保存。当前映射：%3。</translation>
    </message>
    <message>
        <source>Experts calibrated: separation %1 on dev (null %2, chance 0.125); kept for this model file. %3</source>
        <translation>专家已校准：开发集区分度 %1（零假设 %2，随机 0.125）；已为此模型文件保存。%3</translation>
    </message>
    <message>
        <source>The routing tells the probe set&apos;s subsystems apart.</source>
        <translation>路由能区分探针集的各子系统。</translation>
    </message>
    <message>
        <source>The routing does not tell the probe set&apos;s subsystems apart.</source>
        <translation>路由无法区分探针集的各子系统。</translation>
    </message>
    <message>
        <source>retry %1 of %2 in %3 s: %4</source>
        <translation>%3 秒后第 %1 次重试（共 %2 次）：%4</translation>
    </message>
    <message>
        <source>Runs from now on are measured with it; earlier runs keep the map they were measured with.</source>
        <translation>此后的运行用它来测量；之前的运行保留测量时所用的映射。</translation>
    </message>
</context>
<context>
    <name>octo::ui::ServerController</name>
    <message>
        <source>Connect to Server</source>
        <translation>连接服务器</translation>
    </message>
    <message>
        <source>the server&apos;s first model</source>
        <translation>服务器的第一个模型</translation>
    </message>
    <message>
        <source>No key</source>
        <translation>无密钥</translation>
    </message>
    <message>
        <source>Environment variable</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <source>System keyring</source>
        <translation>系统密钥环</translation>
    </message>
    <message>
        <source>type it to store it in the keyring; empty: the stored one</source>
        <translation>输入后将存入密钥环；留空：使用已存储的密钥</translation>
    </message>
    <message>
        <source>Server URL</source>
        <translation>服务器 URL</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>The key is never saved in the settings or in captures. Any OpenAI-compatible server works; an Octoscope server (octoscope-cli serve) also gives every measurement.</source>
        <translation>密钥绝不会保存在设置或捕获中。任何兼容 OpenAI 的服务器都可以使用；Octoscope 服务器（octoscope-cli serve）还会提供全部测量数据。</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Cannot store the key in the system keyring: %1</source>
        <translation>无法将密钥存入系统密钥环：%1</translation>
    </message>
    <message>
        <source>The environment variable %1 holding the server&apos;s key is not set.</source>
        <translation>存放服务器密钥的环境变量 %1 未设置。</translation>
    </message>
    <message>
        <source>Cannot read the server&apos;s key from the system keyring: %1</source>
        <translation>无法从系统密钥环读取服务器密钥：%1</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>%1 serves no model.</source>
        <translation>%1 没有提供任何模型。</translation>
    </message>
    <message>
        <source>%1 does not serve %2 (it serves: %3).</source>
        <translation>%1 没有提供 %2（它提供：%3）。</translation>
    </message>
    <message>
        <source>Cannot connect: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <source>Connected to %1 (%2): text, log-probabilities and timing; the views that need the model&apos;s internals say so</source>
        <translation>已连接到 %1（%2）：文本、对数概率和时间；需要模型内部数据的视图会给出说明</translation>
    </message>
    <message>
        <source>Connected to %1 (%2, an Octoscope server): measurements, head map and the pool&apos;s totals come from it; attention weights stay on the server</source>
        <translation>已连接到 %1（%2，Octoscope 服务器）：测量数据、头映射和 KV 池总数来自服务器；注意力权重留在服务器上</translation>
    </message>
</context>
<context>
    <name>octo::ui::SessionArchiveController</name>
    <message>
        <source>Cannot export the session into %1: choose an empty folder (nothing in it is overwritten).</source>
        <translation>无法将会话导出到 %1：请选择一个空文件夹（不会覆盖其中的任何内容）。</translation>
    </message>
    <message>
        <source>Cannot make the folder %1.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <source>No run of the history can be exported%1</source>
        <translation>历史中没有可以导出的运行%1</translation>
    </message>
    <message>
        <source>Cannot export the session: %1</source>
        <translation>无法导出会话：%1</translation>
    </message>
    <message>
        <source> (left out: %1)</source>
        <translation>（未导出：%1）</translation>
    </message>
    <message>
        <source>%1 is not an exported session: it has no %2.</source>
        <translation>%1 不是导出的会话：其中没有 %2。</translation>
    </message>
    <message>
        <source>Cannot import the session %1: %2</source>
        <translation>无法导入会话 %1：%2</translation>
    </message>
    <message>
        <source> (could not read: %1)</source>
        <translation>（无法读取：%1）</translation>
    </message>
    <message>
        <source>Folder to export the session into</source>
        <translation>导出会话的文件夹</translation>
    </message>
    <message>
        <source>An exported session&apos;s folder</source>
        <translation>导出会话所在的文件夹</translation>
    </message>
    <message>
        <source>1 run</source>
        <translation>1 次运行</translation>
    </message>
    <message>
        <source>%1 runs</source>
        <translation>%1 次运行</translation>
    </message>
    <message>
        <source>Exporting %1 to %2…</source>
        <translation>正在将 %1导出到 %2…</translation>
    </message>
    <message>
        <source>Exported %1 to %2</source>
        <translation>已将 %1导出到 %2</translation>
    </message>
    <message>
        <source>Importing %1 from %2…</source>
        <translation>正在从 %2 导入 %1…</translation>
    </message>
    <message>
        <source>Imported %1 from %2</source>
        <translation>已从 %2 导入 %1</translation>
    </message>
</context>
<context>
    <name>octo::ui::ShortcutsDialog</name>
    <message>
        <source>Anywhere in the window</source>
        <translation>窗口中任意位置</translation>
    </message>
    <message>
        <source>Prompt editor</source>
        <translation>提示词编辑器</translation>
    </message>
    <message>
        <source>Select the previous or next token</source>
        <translation>选择上一个或下一个词元</translation>
    </message>
    <message>
        <source>Token stream</source>
        <translation>词元流</translation>
    </message>
    <message>
        <source>Undo the note&apos;s last edit</source>
        <translation>撤销备注的上一次编辑</translation>
    </message>
    <message>
        <source>Presenter</source>
        <translation>演示者</translation>
    </message>
    <message>
        <source>Redo the note&apos;s edit</source>
        <translation>重做备注的编辑</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Type a tab (Tab moves to the next field)</source>
        <translation>输入制表符（Tab 键移到下一个字段）</translation>
    </message>
    <message>
        <source>Move the cell cursor and show its readout</source>
        <translation>移动单元格光标并显示其读数</translation>
    </message>
    <message>
        <source>Heatmaps (Layers × heads, Tokens × subsystems, Attention)</source>
        <translation>热图（层 × 注意力头、词元 × 子系统、注意力）</translation>
    </message>
    <message>
        <source>Reset the zoom and pan</source>
        <translation>重置缩放和平移</translation>
    </message>
    <message>
        <source>Any plot</source>
        <translation>任意图表</translation>
    </message>
    <message>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>Send the next turn (or the edited turn, as a branch)</source>
        <translation>发送下一回合（或作为分支发送编辑过的回合）</translation>
    </message>
    <message>
        <source>Leave the edit of a turn</source>
        <translation>退出回合编辑</translation>
    </message>
    <message>
        <source>Select the previous or next turn</source>
        <translation>选择上一个或下一个回合</translation>
    </message>
</context>
<context>
    <name>octo::ui::StatusLine</name>
    <message>
        <source>no model</source>
        <translation>未加载模型</translation>
    </message>
    <message>
        <source>loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>%1 (%2, %3 M parameters) on %4</source>
        <translation>%1（%2，%3 M 参数），运行于 %4</translation>
    </message>
    <message>
        <source> — head map: %1</source>
        <translation> — 注意力头映射：%1</translation>
    </message>
    <message>
        <source>CUDA is not used: %1</source>
        <translation>未使用 CUDA：%1</translation>
    </message>
    <message>
        <source>context %1, weights %2, KV pool %3</source>
        <translation>上下文 %1，权重 %2，KV 池 %3</translation>
    </message>
    <message>
        <source>The model was trained for %1 positions; a context of %2 is what fits in the memory available. The KV pool&apos;s pages are committed as positions are written.</source>
        <translation>模型训练时的上下文为 %1 个位置；可用内存只容得下 %2 的上下文。KV 池的内存页在写入位置时才提交。</translation>
    </message>
    <message>
        <source>The KV pool holds the whole context; its pages are committed as positions are written.</source>
        <translation>KV 池容纳整个上下文；其内存页在写入位置时才提交。</translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 词元/秒</translation>
    </message>
    <message>
        <source> (outputs only)</source>
        <translation>（仅输出）</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>not answering</source>
        <translation>无响应</translation>
    </message>
    <message>
        <source>not answering, %1</source>
        <translation>无响应，%1</translation>
    </message>
    <message>
        <source>%1 on the server %2%3 — %4</source>
        <translation>%1，位于服务器 %2%3 — %4</translation>
    </message>
    <message>
        <source> (Octoscope)</source>
        <translation>（Octoscope）</translation>
    </message>
    <message>
        <source>The last run failed: %1</source>
        <translation>上次运行失败：%1</translation>
    </message>
</context>
<context>
    <name>octo::ui::StructuredOutputDialog</name>
    <message>
        <source>JSON Schema of the answer</source>
        <translation>回答的 JSON Schema</translation>
    </message>
    <message>
        <source>Grammar of the answer (GBNF)</source>
        <translation>回答的语法 (GBNF)</translation>
    </message>
    <message>
        <source>Every answer will be a JSON document this schema accepts. Keywords the grammar cannot enforce are refused (docs/structured-output.md).</source>
        <translation>每个回答都将是此 Schema 接受的 JSON 文档。语法无法强制的关键字会被拒绝（docs/structured-output.md）。</translation>
    </message>
    <message>
        <source>Every answer will be a sentence of this grammar (llama.cpp&apos;s GBNF; the rule &apos;root&apos; starts it).</source>
        <translation>每个回答都将是此语法的一个句子（llama.cpp 的 GBNF；从规则 &apos;root&apos; 开始）。</translation>
    </message>
    <message>
        <source>&amp;Load file…</source>
        <translation>载入文件(&amp;L)…</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>载入</translation>
    </message>
    <message>
        <source>JSON Schema (*.json);;All files (*)</source>
        <translation>JSON Schema (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>GBNF grammar (*.gbnf);;All files (*)</source>
        <translation>GBNF 语法 (*.gbnf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot read %1 (at most 1 MiB).</source>
        <translation>无法读取 %1（最多 1 MiB）。</translation>
    </message>
</context>
<context>
    <name>octo::ui::SubsystemStripView</name>
    <message>
        <source>%1 (no heads)</source>
        <translation>%1（无注意力头）</translation>
    </message>
    <message>
        <source>token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>token %1 “%2” (%3)
%4: %5 = %6</source>
        <translation>词元 %1“%2”（%3）
%4：%5 = %6</translation>
    </message>
    <message>
        <source>generated</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>No run yet: type a prompt and press Ctrl+Enter.</source>
        <translation>尚无运行：输入提示词后按 Ctrl+Enter。</translation>
    </message>
    <message>
        <source>No tokens yet.</source>
        <translation>尚无词元。</translation>
    </message>
    <message>
        <source>DLA was not recorded for this run. Tick “DLA” in the prompt panel and run again.</source>
        <translation>本次运行未记录 DLA。在提示词面板中勾选“DLA”后重新运行。</translation>
    </message>
    <message>
        <source>“%1” was not recorded for this run.</source>
        <translation>本次运行未记录“%1”。</translation>
    </message>
</context>
<context>
    <name>octo::ui::SwitchesPanel</name>
    <message>
        <source>This model&apos;s head map gives this group no heads (%1 heads a layer): nothing to turn off.</source>
        <translation>此模型的注意力头映射没有给这一组分配注意力头（每层 %1 个）：没有可关闭的内容。</translation>
    </message>
    <message>
        <source>All &amp;on</source>
        <translation>全部开启(&amp;O)</translation>
    </message>
    <message>
        <source>Ablation: zero sets a head&apos;s output to 0; mean replaces it by its mean over the prompt</source>
        <translation>消融：置零将注意力头的输出设为 0；均值则用其在提示词上的均值替换</translation>
    </message>
    <message>
        <source>R&amp;erun</source>
        <translation>重新运行(&amp;E)</translation>
    </message>
    <message>
        <source>Run the last prompt again with these switches and the same seed (Ctrl+R)</source>
        <translation>用这些开关和相同的随机种子再次运行上一个提示词（Ctrl+R）</translation>
    </message>
    <message>
        <source>Ablation</source>
        <translation>消融</translation>
    </message>
    <message>
        <source>Colour by</source>
        <translation>着色依据</translation>
    </message>
    <message>
        <source>Experts off</source>
        <translation>排除的专家</translation>
    </message>
    <message>
        <source>e.g. *:3, 1:0 (layer:expert)</source>
        <translation>如 *:3, 1:0（层:专家）</translation>
    </message>
    <message>
        <source>Experts left out of the router&apos;s choice in the next run: the next most probable expert runs instead. layer:expert, or *:expert for every layer; right-click a cell of the Experts panel to add one.</source>
        <translation>下次运行中从路由器的选择里排除的专家：改由概率次高的专家运行。格式为 层:专家，或 *:专家 表示每一层；在“专家”面板的格子上右键即可添加。</translation>
    </message>
    <message>
        <source>Not layer:expert, left out of the run: %1</source>
        <translation>不是 层:专家 格式，未用于运行：%1</translation>
    </message>
    <message>
        <source>Switches turn off heads</source>
        <translation>开关关闭注意力头</translation>
    </message>
    <message>
        <source>Switches turn off experts</source>
        <translation>开关关闭专家</translation>
    </message>
    <message>
        <source>What an unchecked subsystem turns off in the next run: its heads, or the experts the calibrated expert map gives it in every layer</source>
        <translation>取消勾选的子系统在下次运行中关闭什么：它的注意力头，或校准的专家映射在每一层分配给它的专家</translation>
    </message>
    <message>
        <source>Unchecked: this group&apos;s heads are ablated in the next run.</source>
        <translation>取消勾选：下次运行时消融该组的注意力头。</translation>
    </message>
    <message>
        <source>%1 on the server %2</source>
        <translation>服务器 %2 上的 %1</translation>
    </message>
    <message>
        <source>The shown run was made with %1; these switches are for the next run, on %2.</source>
        <translation>显示的运行是用 %1 完成的；这些开关用于下一次运行，在 %2 上。</translation>
    </message>
    <message>
        <source>The shown run was measured with an earlier head map; these switches name the groups of the next run.</source>
        <translation>显示的运行是用较早的头映射测量的；这些开关显示的是下一次运行的分组名称。</translation>
    </message>
    <message>
        <source>The shown run was measured with the %1 head map; these switches name the groups of the next run (%2 map).</source>
        <translation>显示的运行是用%1头映射测量的；这些开关显示的是下一次运行的分组名称（%2映射）。</translation>
    </message>
</context>
<context>
    <name>octo::ui::TimelineScrubber</name>
    <message>
        <source>Step Back</source>
        <translation>后退一步</translation>
    </message>
    <message>
        <source>Alt+Left</source>
        <translation>Alt+Left</translation>
    </message>
    <message>
        <source>Previous token (Alt+Left or [)</source>
        <translation>上一个词元（Alt+Left 或 [）</translation>
    </message>
    <message>
        <source>Step Forward</source>
        <translation>前进一步</translation>
    </message>
    <message>
        <source>Alt+Right</source>
        <translation>Alt+Right</translation>
    </message>
    <message>
        <source>Next token (Alt+Right or ])</source>
        <translation>下一个词元（Alt+Right 或 ]）</translation>
    </message>
    <message>
        <source>First Token</source>
        <translation>第一个词元</translation>
    </message>
    <message>
        <source>Alt+Home</source>
        <translation>Alt+Home</translation>
    </message>
    <message>
        <source>Last Token</source>
        <translation>最后一个词元</translation>
    </message>
    <message>
        <source>Alt+End</source>
        <translation>Alt+End</translation>
    </message>
    <message>
        <source>Timeline: step through the run token by token (Alt+Left / Alt+Right, [ / ])</source>
        <translation>时间轴：逐个词元浏览本次运行（Alt+Left / Alt+Right，[ / ]）</translation>
    </message>
    <message>
        <source>no run</source>
        <translation>无运行</translation>
    </message>
    <message>
        <source>prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>generated</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>stopped: %1</source>
        <translation>停止原因：%1</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>The run filled the model&apos;s context: nothing more fits. Shorten the prompt or load the model with a longer context.</source>
        <translation>本次运行已填满模型的上下文，无法再容纳更多内容。请缩短提示词，或以更长的上下文加载模型。</translation>
    </message>
    <message>
        <source>1 token</source>
        <translation>1 个词元</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个词元</translation>
    </message>
    <message>
        <source>position %1 (%2, last) · %3</source>
        <translation>位置 %1（%2，最后一个）· %3</translation>
    </message>
    <message>
        <source>position %1 (%2) · %3</source>
        <translation>位置 %1（%2）· %3</translation>
    </message>
    <message>
        <source>bent %1/%2</source>
        <translation>约束改变 %1/%2</translation>
    </message>
    <message>
        <source>Structured output: at %1 of %2 generated tokens the constraint removed at least half of the model&apos;s probability (red bars under the tokens; hover one for what the model wanted instead)</source>
        <translation>结构化输出：在 %2 个生成词元中的 %1 个处，约束移除了模型至少一半的概率（词元下方的红条；悬停可查看模型原本想要的内容）</translation>
    </message>
</context>
<context>
    <name>octo::ui::TokenScope</name>
    <message>
        <source>Selected token</source>
        <translation>所选词元</translation>
    </message>
    <message>
        <source>Mean over the prompt</source>
        <translation>提示词上的均值</translation>
    </message>
    <message>
        <source>Mean over the answer</source>
        <translation>回答上的均值</translation>
    </message>
</context>
<context>
    <name>octo::ui::TokenStreamView</name>
    <message>
        <source>analysis</source>
        <translation>分析</translation>
    </message>
    <message>
        <source>final answer</source>
        <translation>最终回答</translation>
    </message>
    <message>
        <source>commentary</source>
        <translation>评注</translation>
    </message>
    <message>
        <source>no channel</source>
        <translation>无通道</translation>
    </message>
    <message>
        <source>harmony header of the %1 channel</source>
        <translation>%1 通道的 harmony 标头</translation>
    </message>
    <message>
        <source>%1 channel</source>
        <translation>%1 通道</translation>
    </message>
    <message>
        <source>Token stream</source>
        <translation>词元流</translation>
    </message>
    <message>
        <source>Type a prompt and press Ctrl+Enter</source>
        <translation>输入提示词后按 Ctrl+Enter</translation>
    </message>
    <message>
        <source>(generated)</source>
        <translation>（生成）</translation>
    </message>
    <message>
        <source>(prompt)</source>
        <translation>（提示词）</translation>
    </message>
    <message>
        <source>, log-prob %1</source>
        <translation>，对数概率 %1</translation>
    </message>
    <message>
        <source>alternatives:</source>
        <translation>候选：</translation>
    </message>
    <message>
        <source>experts (weight) per layer:</source>
        <translation>各层的专家（权重）：</translation>
    </message>
    <message>
        <source>… %1 more layers in the Experts view</source>
        <translation>… 另有 %1 层，见“专家”面板</translation>
    </message>
    <message>
        <source>id %1</source>
        <translation>id %1</translation>
    </message>
    <message>
        <source>position %1, token id %2, bytes %3</source>
        <translation>位置 %1，词元 id %2，字节 %3</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Structured output: the constraint removed %1 % of the probability here</source>
        <translation>结构化输出：约束在此移除了 %1 % 的概率</translation>
    </message>
    <message>
        <source>the model wanted:</source>
        <translation>模型原本想要：</translation>
    </message>
    <message>
        <source>pull toward %1 over the chosen token (DLA):</source>
        <translation>相对所选词元偏向 %1 的拉力（DLA）：</translation>
    </message>
</context>
<context>
    <name>octo::ui::ViewMenu</name>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>La&amp;yout</source>
        <translation>布局(&amp;Y)</translation>
    </message>
    <message>
        <source>&amp;Inspect</source>
        <translation>检查(&amp;I)</translation>
    </message>
    <message>
        <source>Ctrl+Alt+1</source>
        <translation>Ctrl+Alt+1</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>对比(&amp;C)</translation>
    </message>
    <message>
        <source>Ctrl+Alt+2</source>
        <translation>Ctrl+Alt+2</translation>
    </message>
    <message>
        <source>&amp;Teach</source>
        <translation>教学(&amp;T)</translation>
    </message>
    <message>
        <source>Ctrl+Alt+3</source>
        <translation>Ctrl+Alt+3</translation>
    </message>
    <message>
        <source>&amp;Reset Layout</source>
        <translation>重置布局(&amp;R)</translation>
    </message>
    <message>
        <source>Reset Lin&amp;ked Views</source>
        <translation>重置联动视图(&amp;K)</translation>
    </message>
    <message>
        <source>Ctrl+Alt+0</source>
        <translation>Ctrl+Alt+0</translation>
    </message>
</context>
<context>
    <name>octo::ui::Workbench</name>
    <message>
        <source>These two runs cannot be compared.</source>
        <translation>这两次运行无法对比。</translation>
    </message>
    <message>
        <source>Run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message>
        <source>Claims unavailable: %1</source>
        <translation>论断不可用：%1</translation>
    </message>
    <message>
        <source>Disconnected from the server %1</source>
        <translation>已断开与服务器 %1 的连接</translation>
    </message>
</context>
</TS>
