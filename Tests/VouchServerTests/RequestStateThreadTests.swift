import Foundation
import Testing
@testable import VouchHTTP

/// A request's state belongs to the thread that took it (`RequestState.adopt`), and a debug build stops when
/// another thread touches it (`assertOnOwnThread`): its properties skip the run-time exclusivity checks on the
/// strength of that one thread.
@Suite struct RequestStateThreadTests {
    /// Runs `body` on a thread of its own and waits for it.
    static func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.start()
        done.wait()
    }

    @Test func aStateTakenOnAnotherThreadBelongsToThatThread() {
        let state = RequestState(slot: -1, names: RequestHeaderScan.Names(["x-request-id"]))
        RequestStateThreadTests.onAnotherThread {
            state.adopt()
            state.assertOnOwnThread()
            state.recycle()
        }
    }

    #if DEBUG
    @Test func aDebugBuildStopsWhenAnotherThreadTouchesAState() async {
        await #expect(processExitsWith: .failure) {
            let state = RequestState(slot: -1, names: RequestHeaderScan.Names(["x-request-id"]))
            RequestStateThreadTests.onAnotherThread { state.assertOnOwnThread() }
        }
    }
    #endif
}
