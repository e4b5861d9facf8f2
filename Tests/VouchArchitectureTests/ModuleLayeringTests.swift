import Foundation
import Testing

/// The layering the compiler cannot hold alone: SwiftPM lets a module import anything built before it, declared or
/// not, and says nothing of a dependency that points upward. These read `Package.swift` and every `import` line.
struct ModuleLayeringTests {
    let manifest: PackageManifest
    /// The project's own Swift modules: what the layer table must place.
    let modules: [PackageManifest.Target]

    init() throws {
        manifest = try PackageManifest.load()
        modules = manifest.targets.filter { $0.kind == .target || $0.kind == .executableTarget }
            .filter { !$0.path.hasPrefix("Tests/") }
    }

    @Test func theManifestIsReadWhole() {
        // A parser that silently read nothing would let every other test here pass.
        #expect(modules.count >= 15)
        #expect(manifest["VouchServer"]?.dependencies.contains("VouchDomain") == true)
        #expect(manifest["VouchDomain"]?.dependencies == [])
    }

    @Test func everyModuleHasALayer() {
        for module in modules {
            #expect(ModuleLayers.layer(of: module.name) != nil, "\(module.name) is in Package.swift but has no row in ModuleLayers")
        }
        let declared = Set(manifest.targets.map(\.name))
        for name in ModuleLayers.layers.flatMap(\.modules) {
            #expect(declared.contains(name), "ModuleLayers names \(name), which Package.swift does not declare")
        }
    }

    @Test func dependenciesPointOnlyToLowerLayers() {
        let systemLibraries = Set(manifest.targets.filter { $0.kind == .systemLibrary || $0.kind == .plugin }.map(\.name))
        for module in modules {
            guard let layer = ModuleLayers.layer(of: module.name) else { continue }
            for dependency in module.dependencies where !systemLibraries.contains(dependency) {
                let below = ModuleLayers.layer(of: dependency).map { $0 < layer } ?? false
                #expect(below, "\(module.name) (layer \(layer + 1), \(ModuleLayers.layers[layer].name)) depends on \(dependency), which is not in a lower layer")
            }
        }
    }

    /// Every import names a declared dependency, so the manifest is the whole truth about what uses what.
    @Test func sourcesImportOnlyWhatTheirModuleDeclares() throws {
        for module in manifest.targets where module.kind != .systemLibrary {
            let folder = PackageManifest.repository.appendingPathComponent(module.path)
            // A target's module name spells its dashes as underscores (vouch-embed is imported as vouch_embed).
            let allowed = Set((module.dependencies + [module.name]).map { $0.replacingOccurrences(of: "-", with: "_") }).union(ModuleLayers.toolchain)
            for found in try SourceImports(folder: folder, relativeTo: PackageManifest.repository).imports {
                #expect(allowed.contains(found.module),
                        "\(found.file):\(found.line) imports \(found.module), which \(module.name) does not list among its dependencies in Package.swift")
            }
        }
    }

    @Test func pureModulesImportNoCAndNoIO() throws {
        let allowed: Set<String> = ["Foundation", "FoundationEssentials", "Synchronization"]
        for name in ModuleLayers.pure {
            let module = try #require(manifest[name])
            #expect(module.dependencies.allSatisfy { ModuleLayers.pure.contains($0) }, "\(name) depends on \(module.dependencies)")
            let folder = PackageManifest.repository.appendingPathComponent(module.path)
            for found in try SourceImports(folder: folder, relativeTo: PackageManifest.repository).imports where !ModuleLayers.pure.contains(found.module) {
                #expect(allowed.contains(found.module), "\(found.file):\(found.line) imports \(found.module) into the pure module \(name)")
            }
        }
    }

    @Test(arguments: [
        ("import Foundation", "Foundation"), ("@testable import VouchServer", "VouchServer"), ("  @preconcurrency import Dispatch", "Dispatch"),
        ("public import VouchDomain", "VouchDomain"), ("import struct VouchJSON.JSONValue", "VouchJSON"), ("@_spi(X) @testable import A", "A"),
    ])
    func importLinesAreRead(line: String, module: String) {
        #expect(SourceImports.importedModule(in: Substring(line)) == module)
    }

    @Test(arguments: ["// import Foundation", "let important = 1", "/// the import of X", "\"import X\""])
    func otherLinesAreNotImports(line: String) {
        #expect(SourceImports.importedModule(in: Substring(line)) == nil)
    }
}
