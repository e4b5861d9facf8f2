import VouchJSON

/// Parsing a request object with thousands of members and reading each one, as a large OFREP context is read.
///
/// A linear scan per member would make this quadratic; with the hash index it is linear,
/// so the eighth-size object costs about an eighth as much.
enum JSONObjectBench {
    /// `{"context":{"targetingKey":"user-1","1":0,"2":0,…,"zz":0,…}}`: names counted in base 36, the shortest members an
    /// attacker could send (8 bytes each at 6,400), until the body reaches `bytes` bytes or the context `members` members
    /// (the targeting key among them).
    static func contextBody(bytes: Int = .max, members: Int = .max) -> (text: [UInt8], members: Int) {
        var text = Array(#"{"context":{"targetingKey":"user-1""#.utf8)
        var count = 1
        while count < members {
            let member = Array(#","\#(String(count, radix: 36))":0"#.utf8)
            guard text.count + member.count + 2 <= bytes else { break }
            text += member
            count += 1
        }
        text += Array("}}".utf8)
        return (text, count)
    }

    static func run(runs: Int) throws {
        let full = contextBody(bytes: 64 * 1024)
        let eighth = contextBody(bytes: 8 * 1024)
        let fullMilliseconds = try time(full.text, runs: runs)
        let eighthMilliseconds = try time(eighth.text, runs: runs)
        Report.line("JSON object bytes", String(full.text.count))
        Report.line("JSON object members", String(full.members))
        Report.line("JSON parse and look-up of every member, 64 KiB object, ms (median)", Report.fixed(Report.median(fullMilliseconds), 3))
        Report.line("JSON parse and look-up of every member, 64 KiB object, ms (max)", Report.fixed(fullMilliseconds.max() ?? .nan, 3))
        Report.line("JSON parse and look-up of every member, 8 KiB object (\(eighth.members) members), ms (median)",
                    Report.fixed(Report.median(eighthMilliseconds), 3))
        Report.line("JSON time ratio 64 KiB / 8 KiB (linear: about 8, quadratic: about 64)",
                    Report.fixed(Report.median(fullMilliseconds) / Report.median(eighthMilliseconds), 1))
    }

    /// Milliseconds per run: parse the text, then read every context member by name.
    private static func time(_ text: [UInt8], runs: Int) throws -> [Double] {
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<runs {
            let start = clock.now
            let value = try JSONParser.parse(text)
            guard let context = value["context"]?.objectValue else { throw BenchError("the body has no context object") }
            var found = 0
            for name in context.keys where context[name] != nil { found += 1 }
            times.append(Report.milliseconds(clock.now - start))
            guard found == context.keys.count else { throw BenchError("\(found) of \(context.keys.count) members found") }
            Checksum.fold(found)
        }
        return times
    }
}
