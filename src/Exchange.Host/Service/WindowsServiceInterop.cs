using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace Exchange.Host.Service;

/// <summary>The three advapi32 calls a Win32 service needs (the ServiceController package is not on the mirror).</summary>
[SupportedOSPlatform("windows")]
internal static unsafe partial class WindowsServiceInterop
{
    internal const uint ServiceWin32OwnProcess = 0x10;
    internal const uint StateStopped = 1;
    internal const uint StateStartPending = 2;
    internal const uint StateStopPending = 3;
    internal const uint StateRunning = 4;
    internal const uint ControlStop = 1;
    internal const uint ControlInterrogate = 4;
    internal const uint ControlShutdown = 5;
    internal const uint AcceptStop = 1;
    internal const uint AcceptShutdown = 4;

    [StructLayout(LayoutKind.Sequential)]
    internal struct ServiceTableEntry
    {
        public char* ServiceName;
        public delegate* unmanaged<int, char**, void> ServiceMain;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct ServiceStatus
    {
        public uint ServiceType;
        public uint CurrentState;
        public uint ControlsAccepted;
        public uint Win32ExitCode;
        public uint ServiceSpecificExitCode;
        public uint CheckPoint;
        public uint WaitHint;
    }

    /// <summary>Blocks the calling thread until the service reports Stopped.</summary>
    [LibraryImport("advapi32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    internal static partial bool StartServiceCtrlDispatcherW(ServiceTableEntry* table);

    [LibraryImport("advapi32.dll", SetLastError = true, StringMarshalling = StringMarshalling.Utf16)]
    internal static partial nint RegisterServiceCtrlHandlerExW(string serviceName, delegate* unmanaged<uint, uint, nint, nint, uint> handler, nint context);

    [LibraryImport("advapi32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    internal static partial bool SetServiceStatus(nint handle, ServiceStatus* status);
}
