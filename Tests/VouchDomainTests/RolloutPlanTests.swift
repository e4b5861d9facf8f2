import Testing
import VouchDomain

struct RolloutPlanTests {
    @Test func stepsClimbTheLadder() {
        let plan = RolloutPlan()
        #expect(plan.step(after: 0) == 1)
        #expect(plan.step(after: 10) == 20)
        #expect(plan.step(after: 50) == 100)
        #expect(plan.step(after: 100) == nil)
    }

    @Test func validationNamesStepsAndInterval() {
        #expect(RolloutPlan.validate(steps: [1, 2, 5, 10, 20, 50, 100], intervalSeconds: 86_400).isEmpty)
        #expect(RolloutPlan.validate(steps: [5, 2, 100], intervalSeconds: 60).map(\.field) == ["steps"])
        #expect(RolloutPlan.validate(steps: [5, 50], intervalSeconds: 60).map(\.field) == ["steps"])
        #expect(RolloutPlan.validate(steps: [100], intervalSeconds: 0).map(\.field) == ["interval"])
    }
}
