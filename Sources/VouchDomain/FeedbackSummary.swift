/// A fix's evidence on its current revision: per tester the latest feedback counts.
public struct FeedbackSummary: Sendable, Equatable {
    public struct Counts: Sendable, Equatable {
        public var passed = 0
        public var failed = 0
        public var cantTell = 0

        public init() {}

        mutating func add(_ verdict: Verdict) {
            switch verdict {
            case .passed: passed += 1
            case .failed: failed += 1
            case .cantTell: cantTell += 1
            }
        }

        public var total: Int { passed + failed + cantTell }
    }

    public var fixKey: String
    public var revision: Int
    /// Every record on the revision, including ones a later record of the same tester replaced.
    public var recordCount: Int
    /// The latest record per tester (withdrawn testers' records stand alone, unlinked).
    public var latest: [Feedback]
    public var byVerdict: Counts
    public var byAssistiveTech: [(technology: AssistiveTechnology, counts: Counts)]
    public var byPlatform: [(platform: Platform, counts: Counts)]
    /// Web records by the browser they were tested in.
    public var byBrowser: [(browser: Browser, counts: Counts)]
    /// Latest records with a serious or critical problem, or a regression.
    public var blocking: [Feedback]

    public init(fixKey: String, revision: Int, latest: [Feedback], recordCount: Int) {
        self.fixKey = fixKey
        self.revision = revision
        self.recordCount = recordCount
        self.latest = latest
        var verdicts = Counts()
        var technologies: [AssistiveTechnology: Counts] = [:]
        var platforms: [Platform: Counts] = [:]
        var browsers: [Browser: Counts] = [:]
        for record in latest {
            verdicts.add(record.verdict)
            technologies[record.assistiveTech, default: Counts()].add(record.verdict)
            platforms[record.platform, default: Counts()].add(record.verdict)
            if let browser = record.browser { browsers[browser, default: Counts()].add(record.verdict) }
        }
        byVerdict = verdicts
        byAssistiveTech = AssistiveTechnology.allCases.compactMap { technology in technologies[technology].map { (technology, $0) } }
        byPlatform = Platform.allCases.compactMap { platform in platforms[platform].map { (platform, $0) } }
        byBrowser = Browser.allCases.compactMap { browser in browsers[browser].map { (browser, $0) } }
        blocking = latest.filter(\.isBlocking)
    }

    public static func == (lhs: FeedbackSummary, rhs: FeedbackSummary) -> Bool {
        lhs.fixKey == rhs.fixKey && lhs.revision == rhs.revision && lhs.recordCount == rhs.recordCount && lhs.latest == rhs.latest
    }
}
