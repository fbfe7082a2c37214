using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using Microsoft.Extensions.Hosting;
using static Exchange.Host.Service.WindowsServiceInterop;

namespace Exchange.Host.Service;

/// <summary>
/// Runs the Generic Host as a Win32 service: the service control manager starts us, we report Running once the host
/// has started, and a Stop or Shutdown control becomes a graceful host stop (drain rings, flush journal, log out).
/// Chosen by the --windows-service switch that the service's command line carries (see README).
/// </summary>
/// <remarks>
/// The SCM calls back on its own threads into static entry points, so the one lifetime of the process is kept in a
/// static field. A process hosts one venue service.
/// </remarks>
[SupportedOSPlatform("windows")]
public sealed unsafe class WindowsServiceLifetime(IHostApplicationLifetime application, string serviceName) : IHostLifetime, IDisposable
{
    private static WindowsServiceLifetime? s_current;

    private readonly IHostApplicationLifetime _application = application;
    private readonly string _serviceName = serviceName;

    private readonly TaskCompletionSource _serviceMainCalled = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private nint _statusHandle;
    private uint _checkPoint;
    private Thread? _dispatcher;

    public Task WaitForStartAsync(CancellationToken cancellationToken)
    {
        s_current = this;
        _application.ApplicationStarted.Register(() => Report(StateRunning));
        _application.ApplicationStopping.Register(() => Report(StateStopPending));
        _application.ApplicationStopped.Register(() => Report(StateStopped));

        _dispatcher = new Thread(RunDispatcher) { IsBackground = true, Name = "service-dispatcher" };
        _dispatcher.Start();
        return _serviceMainCalled.Task.WaitAsync(cancellationToken);
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public void Dispose() => s_current = null;

    private void RunDispatcher()
    {
        IntPtr name = Marshal.StringToHGlobalUni(_serviceName);
        try
        {
            ServiceTableEntry* table = stackalloc ServiceTableEntry[2];
            table[0] = new ServiceTableEntry { ServiceName = (char*)name, ServiceMain = &ServiceMain };
            table[1] = default;
            if (!StartServiceCtrlDispatcherW(table))
            {
                _serviceMainCalled.TrySetException(new InvalidOperationException(
                    $"Not started by the service control manager (error {Marshal.GetLastPInvokeError()}); run without --windows-service from a console."));
            }
        }
        finally
        {
            Marshal.FreeHGlobal(name);
        }
    }

    [UnmanagedCallersOnly]
    private static void ServiceMain(int argc, char** argv)
    {
        WindowsServiceLifetime? self = s_current;
        if (self is null)
        {
            return;
        }

        self._statusHandle = RegisterServiceCtrlHandlerExW(self._serviceName, &Control, 0);
        self.Report(StateStartPending);
        self._serviceMainCalled.TrySetResult();
    }

    [UnmanagedCallersOnly]
    private static uint Control(uint control, uint eventType, nint eventData, nint context)
    {
        if (control is ControlStop or ControlShutdown)
        {
            s_current?._application.StopApplication();
        }

        // NO_ERROR for everything, including Interrogate: the SCM then re-reads the last reported status.
        return 0;
    }

    private void Report(uint state)
    {
        if (_statusHandle == 0)
        {
            return;
        }

        var status = new ServiceStatus
        {
            ServiceType = ServiceWin32OwnProcess,
            CurrentState = state,
            ControlsAccepted = state == StateRunning ? AcceptStop | AcceptShutdown : 0,
            CheckPoint = state is StateStartPending or StateStopPending ? ++_checkPoint : 0,
            WaitHint = state is StateStartPending or StateStopPending ? 30_000u : 0,
        };
        SetServiceStatus(_statusHandle, &status);
    }
}
